import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../app/runtime';
import { feedPathBodySchema, ingestResponseSchema } from '../apiSchemas';
import { resolveFeedPath } from '../feedRoots';
import { badRequest } from '../httpError';
import type { ApiDocs } from '../openapi';
import { jsonRoute } from '../route';
import { saveUpload } from '../uploads';

/**
 * Submit a feed: upload its files (saved under `<dataDir>/uploads/`), or name a file or folder
 * under an allowed root. Either way it is ingested like `photowire ingest`: a batch the workers
 * take, answered at once with its id (202); a feed that cannot be read at all is a 422 naming why.
 */
export function feedRoutes(app: FastifyInstance, docs: ApiDocs, rt: Runtime, opts: { uploadsPerMinute: number }): void {
  jsonRoute(
    app,
    docs,
    {
      method: 'POST',
      url: '/api/feeds',
      tag: 'feeds',
      summary: 'Submit a feed: upload files (multipart) or name a path under PHOTOWIRE_FEED_ROOTS (JSON)',
      description: 'queued: one outcome per feed, with its batch id',
      body: feedPathBodySchema,
      multipart:
        'one or more files: a feed file (gallery text, manifest, XML) with the photos it names, or photos alone (taken as a folder of photos). At most PHOTOWIRE_UPLOAD_MAX_MB in all.',
      response: ingestResponseSchema,
      status: 202,
      statusOf: (r) => (r.feeds.every((f) => f.error) ? 422 : 202),
      alsoStatus: { 422: 'no feed could be read (each outcome says why)' },
      errors: { 400: 'no file, or a bad body', 403: 'path outside the allowed roots, or path submission disabled', 413: 'upload too large', 429: 'too many submissions' },
      routeOptions: { config: { rateLimit: { max: opts.uploadsPerMinute, timeWindow: '1 minute' } } },
    },
    async ({ req, body }) => {
      let feeds: string[];
      if (req.isMultipart()) {
        feeds = (await saveUpload(req, rt.config.dataDir, rt.config.uploadMaxBytes)).feeds;
      } else if (body) {
        feeds = [await resolveFeedPath(body.path, rt.config.feedRoots)];
      } else {
        throw badRequest('send files as multipart/form-data, or JSON {"path": "..."}');
      }
      const outcomes = await rt.ingest.ingest(feeds);
      req.log.info({ feeds: outcomes.map((o) => ({ path: o.path, batchId: o.batchId, error: o.error?.code })) }, 'feeds submitted');
      return { feeds: outcomes };
    },
  );
}
