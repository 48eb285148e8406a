import { apiErrorSchema, batchListQuery, batchListSchema } from '../../schemas/api';
import type { BatchOverviews } from '../../app/batches/batchOverview';
import { PerClientSlots } from '../clientLimits';
import { BatchEventHub } from '../eventHub';
import { HttpError } from '../httpError';
import type { ZodApp } from '../zodApi';

/**
 * Server-sent events: the batch list (same shape as GET /api/batches) whenever it changes, so
 * progress bars move without the page polling. The page reads the stream with fetch, which can
 * send the Authorization header that EventSource cannot.
 */
export function eventRoutes(
  app: ZodApp,
  overviews: BatchOverviews,
  opts: { intervalMs: number; heartbeatMs?: number; streamsPerClient: number },
): BatchEventHub {
  const hub = new BatchEventHub(
    async (query) => JSON.stringify(batchListSchema.parse(await overviews.listWithRuns(query))),
    {
      intervalMs: opts.intervalMs,
      heartbeatMs: opts.heartbeatMs ?? 15_000,
      log: app.log,
    },
  );
  const slots = new PerClientSlots(opts.streamsPerClient);
  // Streams never end on their own: close them so the server can stop.
  app.addHook('preClose', async () => hub.close());

  const error = (description: string) => ({ description, content: { 'application/json': { schema: apiErrorSchema } } });
  const schema = {
    tags: ['batches'],
    summary: 'Server-sent events: `batches` (a BatchList) at once and whenever a ledger changes',
    querystring: batchListQuery,
    response: {
      200: {
        description: 'text/event-stream of `event: batches` messages',
        content: { 'text/event-stream': { schema: batchListSchema } },
      },
      400: error('a bad query'),
      401: error('no or wrong token'),
      429: error('this client already holds PHOTOWIRE_EVENT_STREAMS_PER_CLIENT streams (TOO_MANY_OPEN)'),
    },
  };
  app.get('/api/events', { schema }, async (req, reply) => {
    const release = slots.take(req.ip);
    if (!release) {
      throw new HttpError(
        'TOO_MANY_OPEN',
        `this client already has ${opts.streamsPerClient} event streams open (PHOTOWIRE_EVENT_STREAMS_PER_CLIENT): close a desk tab`,
      );
    }
    reply.hijack();
    const res = reply.raw;
    res.on('close', release);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    await hub.add(res, req.query);
  });
  return hub;
}
