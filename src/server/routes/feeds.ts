import { z } from 'zod';
import type { Runtime } from '../../app/runtime';
import { feedPathBodySchema, ingestResponseSchema } from '../../schemas/api';
import { resolveFeedPath } from '../feedRoots';
import { PerClientSlots } from '../clientLimits';
import { HttpError, badRequest } from '../httpError';
import { saveUpload } from '../uploads';
import { responses, type ZodApp } from '../zodApi';

/** Documents the multipart form; the route reads it itself (src/server/uploads.ts), so it validates nothing. */
const uploadForm = z
  .object({ file: z.array(z.string().meta({ format: 'binary' })) })
  .describe(
    'one or more files: a feed file (gallery text, manifest, XML) with the photos it names, or photos alone (taken as a folder of photos). At most PHOTOWIRE_UPLOAD_MAX_MB in all.',
  );

/**
 * Submit a feed: upload its files (stored as `uploads/<id>/` through the storage port: the data
 * directory or the bucket, so a worker on any machine reads them), or name a file or folder
 * under an allowed root. Either way it is ingested like `photowire ingest`: a batch the workers
 * take, answered at once with its id (202); a feed that cannot be read at all is a 422 naming why.
 */
export function feedRoutes(
  app: ZodApp,
  rt: Runtime,
  opts: { uploadsPerMinute: number; uploadsPerClient: number },
): void {
  const slots = new PerClientSlots(opts.uploadsPerClient);
  app.post(
    '/api/feeds',
    {
      config: { rateLimit: { max: opts.uploadsPerMinute, timeWindow: '1 minute' } },
      // Before the body is read: a client with its uploads all in flight (each may be slow) waits for one to end.
      onRequest: async (req, reply) => {
        const release = slots.take(req.ip);
        if (!release) {
          throw new HttpError(
            'TOO_MANY_OPEN',
            `this client already has ${opts.uploadsPerClient} feed submissions in flight (PHOTOWIRE_UPLOADS_PER_CLIENT): wait for one to end`,
          );
        }
        reply.raw.once('close', release);
      },
      schema: {
        tags: ['feeds'],
        summary: 'Submit a feed: upload files (multipart) or name a path under PHOTOWIRE_FEED_ROOTS (JSON)',
        body: {
          content: {
            'application/json': { schema: feedPathBodySchema },
            'multipart/form-data': { schema: uploadForm },
          },
        },
        response: responses(
          {
            202: [ingestResponseSchema, 'queued: one outcome per feed, with its batch id'],
            422: [ingestResponseSchema, 'no feed could be read (each outcome says why)'],
          },
          {
            400: 'no file, or a bad body',
            403: 'path outside the allowed roots, or path submission disabled',
            413: 'upload too large',
            429: 'too many submissions, or too many in flight from this client',
          },
        ),
      },
    },
    async (req, reply) => {
      let feeds: string[];
      const body: unknown = req.body;
      if (req.isMultipart()) {
        feeds = (
          await saveUpload(req, { storage: rt.ctx.storage, dataDir: rt.config.dataDir }, rt.config.uploadMaxBytes)
        ).feeds;
      } else if (body && typeof body === 'object' && 'path' in body && typeof body.path === 'string') {
        feeds = [await resolveFeedPath(body.path, rt.config.feedRoots)];
      } else {
        throw badRequest('send files as multipart/form-data, or JSON {"path": "..."}');
      }
      const outcomes = await rt.ingest.ingest(feeds);
      req.log.info(
        { feeds: outcomes.map((o) => ({ path: o.path, batchId: o.batchId, error: o.error?.code })) },
        'feeds submitted',
      );
      return reply.code(outcomes.every((f) => f.error) ? 422 : 202).send({ feeds: outcomes });
    },
  );
}
