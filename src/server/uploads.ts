import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { hasImageExtension } from '../core/feeds/sniff';
import { HttpError, badRequest } from './httpError';

export interface SavedUpload {
  /** The upload's folder under `<dataDir>/uploads/`, named by a digest of its names and bytes. */
  dir: string;
  files: string[];
  /** What to ingest: the feed files (manifests, XML, text) if any, else the folder of photos. */
  feeds: string[];
}

const MAX_FILES = 5000;

/** Keep a plain file name: no folders, no dot-files, nothing a shell or a path could misread. */
export function safeFileName(name: string): string | null {
  const base = path.basename(name.replace(/\\/g, '/'));
  const clean = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._ ()+-]/gu, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 200)
    .trim();
  return clean === '' ? null : clean;
}

/**
 * Stream every file of a multipart request to disk under `<dataDir>/uploads/`, capped in total
 * bytes and in files. The folder is named by a digest of the names and contents, so the same
 * upload sent twice lands in the same folder and so on the same batch: nothing is taken twice.
 */
export async function saveUpload(req: FastifyRequest, dataDir: string, maxBytes: number): Promise<SavedUpload> {
  const uploads = path.join(dataDir, 'uploads');
  const incoming = path.join(uploads, `.incoming-${process.pid}-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(incoming, { recursive: true });
  const names = new Set<string>();
  const digests: string[] = [];
  let total = 0;
  try {
    for await (const part of req.files({ limits: { fileSize: maxBytes, files: MAX_FILES, fields: 20 } })) {
      let name = safeFileName(part.filename ?? '');
      if (!name) throw badRequest(`an uploaded file has no usable name (${JSON.stringify(part.filename)})`);
      for (let n = 2; names.has(name); n++) name = name.replace(/^(.*?)(?: \(\d+\))?(\.[^.]*)?$/, `$1 (${n})$2`);
      names.add(name);
      const hash = createHash('sha256');
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          total += chunk.length;
          if (total > maxBytes) {
            cb(new HttpError(413, 'UPLOAD_TOO_LARGE', `the upload is over ${Math.round(maxBytes / 1048576)} MB (PHOTOWIRE_UPLOAD_MAX_MB)`));
            return;
          }
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      await pipeline(part.file, counter, createWriteStream(path.join(incoming, name), { flags: 'wx' }));
      if (part.file.truncated) throw new HttpError(413, 'UPLOAD_TOO_LARGE', `${name} is over ${Math.round(maxBytes / 1048576)} MB (PHOTOWIRE_UPLOAD_MAX_MB)`);
      digests.push(`${name}\0${hash.digest('hex')}`);
    }
    if (names.size === 0) throw badRequest('the upload holds no file: send one or more files in a multipart/form-data body');
    const id = createHash('sha256').update(digests.sort().join('\n')).digest('hex').slice(0, 16);
    const dir = path.join(uploads, id);
    try {
      await fs.rename(incoming, dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      // The same upload came before: keep the first copy (its batch already exists).
      await fs.rm(incoming, { recursive: true, force: true });
    }
    const files = [...names].sort().map((n) => path.join(dir, n));
    const feedFiles = files.filter((f) => !hasImageExtension(f));
    return { dir, files, feeds: feedFiles.length > 0 ? feedFiles : files.length === 1 ? files : [dir] };
  } catch (err) {
    await fs.rm(incoming, { recursive: true, force: true });
    if (err instanceof Error && (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(413, 'UPLOAD_TOO_LARGE', `a file is over ${Math.round(maxBytes / 1048576)} MB (PHOTOWIRE_UPLOAD_MAX_MB)`);
    }
    if (err instanceof Error && (err as { code?: string }).code === 'FST_FILES_LIMIT') {
      throw new HttpError(413, 'UPLOAD_TOO_LARGE', `an upload holds at most ${MAX_FILES} files`);
    }
    throw err;
  }
}
