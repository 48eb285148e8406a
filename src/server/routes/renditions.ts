import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RENDITIONS } from '../../core/images/planRenditions';
import { apiErrorSchema } from '../apiSchemas';
import { notFound } from '../httpError';
import type { ApiDocs } from '../openapi';

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png' };
export const RENDITION_ROUTE = '/api/renditions/:a/:b/:sha256/:file';
const FILES = new Map(RENDITIONS.map((r) => [r.file, CONTENT_TYPES[r.format] ?? 'application/octet-stream']));

/**
 * Renditions are content-addressed (`renditions/ab/cd/<sha256>/thumb.webp`): a URL's bytes never
 * change, so browsers may keep them for a year. Only that exact shape is served, and the real
 * path must stay inside the data directory (a symlink planted there leads nowhere).
 */
export function renditionRoutes(app: FastifyInstance, docs: ApiDocs, dataDir: string): void {
  docs.add({
    method: 'GET',
    url: RENDITION_ROUTE,
    summary: "A photo's thumbnail (WebP, 400 px) or preview (JPEG, 1600 px): the `renditions[].path` of a record, after /api/",
    tag: 'renditions',
    auth: true,
    responses: { 200: { description: 'the image, Cache-Control immutable', contentType: 'image/*' }, 404: { description: 'no such rendition', schema: apiErrorSchema } },
  });
  app.get<{ Params: { a: string; b: string; sha256: string; file: string } }>(
    RENDITION_ROUTE,
    { config: { rateLimit: false } },
    async (req, reply) => {
      const { a, b, sha256, file } = req.params;
      const type = FILES.get(file);
      if (!/^[0-9a-f]{64}$/.test(sha256) || a !== sha256.slice(0, 2) || b !== sha256.slice(2, 4) || !type) throw notFound('no such rendition');
      const root = await fs.realpath(dataDir);
      let real: string;
      try {
        real = await fs.realpath(path.join(root, 'renditions', a, b, sha256, file));
      } catch {
        throw notFound('no such rendition');
      }
      if (!real.startsWith(root + path.sep)) throw notFound('no such rendition');
      const st = await fs.stat(real);
      return reply
        .header('Content-Type', type)
        .header('Content-Length', st.size)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('ETag', `"${sha256.slice(0, 16)}-${file}"`)
        .send(createReadStream(real));
    },
  );
}
