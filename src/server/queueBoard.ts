import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

export const QUEUE_BOARD_PATH = '/admin/queues';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * bull-board's dashboard of the item and batch queues; the auth hook covers it like the API.
 * Its destructive actions (pause, empty, clean, retry all, remove, obliterate, add) can close a
 * batch with items never processed, so they are off unless `write` (PHOTOWIRE_BOARD_WRITE=1):
 * the board is then read-only in its own UI, and every request that is not a read is refused
 * here as well, by the route it matched, whatever bull-board adds in a later version.
 */
export async function mountQueueBoard(app: FastifyInstance, queues: Queue[], opts: { write: boolean }): Promise<void> {
  const adapter = new FastifyAdapter();
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: !opts.write })),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'photowire queues' } },
  });
  adapter.setBasePath(QUEUE_BOARD_PATH);
  if (!opts.write) {
    // preHandler: after the token check (preParsing), so a caller without the token learns nothing.
    app.addHook('preHandler', async (req, reply) => {
      if (READ_METHODS.has(req.method)) return;
      await reply.code(403).send({
        error: 'BOARD_READ_ONLY',
        message:
          'the queue board is read-only: set PHOTOWIRE_BOARD_WRITE=1 on the server to pause, empty, clean, retry or remove jobs there',
      });
      return reply;
    });
  }
  // bull-board's page links a web font from the internet; a newsroom's ops network is often closed,
  // so the board's HTML leaves out every stylesheet or script from another origin (it falls back to
  // the system font). Checked by test/browser/queueBoard.test.ts, which refuses every off-host request.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('text/html'))
      return payload;
    return withoutExternalAssets(payload);
  });
  await app.register(adapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
}

/** `<link href="https://...">` and `<script src="https://...">` removed; same-origin assets kept. */
export function withoutExternalAssets(html: string): string {
  return html
    .replace(/<link\b[^>]{0,2000}?\bhref="(?:https?:)?\/\/[^"]{0,2000}"[^>]{0,2000}>/gi, '')
    .replace(/<script\b[^>]{0,2000}?\bsrc="(?:https?:)?\/\/[^"]{0,2000}"[^>]{0,2000}>\s{0,100}<\/script>/gi, '');
}
