import type { ServerResponse } from 'node:http';
import { apiErrorSchema, batchListQuery, batchListSchema } from '../apiSchemas';
import type { BatchOverviews } from '../batchOverview';
import type { ZodApp } from '../zodApi';

/**
 * Server-sent events: the batch list (same shape as GET /api/batches) whenever it changes, so
 * progress bars move without the page polling. The page reads the stream with fetch, which can
 * send the Authorization header that EventSource cannot.
 */
export function eventRoutes(app: ZodApp, overviews: BatchOverviews, opts: { intervalMs: number; heartbeatMs?: number }): void {
  const open = new Set<ServerResponse>();
  // Streams never end on their own: close them so the server can stop.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  const error = (description: string) => ({ description, content: { 'application/json': { schema: apiErrorSchema } } });
  const schema = {
    tags: ['batches'],
    summary: 'Server-sent events: `batches` (a BatchList) at once and whenever a ledger changes',
    querystring: batchListQuery,
    response: {
      200: { description: 'text/event-stream of `event: batches` messages', content: { 'text/event-stream': { schema: batchListSchema } } },
      400: error('a bad query'),
      401: error('no or wrong token'),
    },
  };
  app.get('/api/events', { schema }, async (req, reply) => {
    const { query } = req;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    open.add(res);
    let last = '';
    let busy = false;
    let lastWrite = Date.now();
    const tick = async () => {
      if (busy || res.writableEnded) return;
      busy = true;
      try {
        const data = JSON.stringify(batchListSchema.parse(await overviews.listWithRuns(query)));
        if (data !== last) {
          last = data;
          res.write(`event: batches\ndata: ${data}\n\n`);
          lastWrite = Date.now();
        } else if (Date.now() - lastWrite > (opts.heartbeatMs ?? 15_000)) {
          // Proxies drop a silent connection; a comment line keeps it open.
          res.write(': keep-alive\n\n');
          lastWrite = Date.now();
        }
      } catch (err) {
        req.log.warn({ err }, 'events: could not read the batches');
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void tick(), opts.intervalMs);
    const stop = () => {
      clearInterval(timer);
      open.delete(res);
    };
    res.on('close', stop);
    await tick();
  });
}
