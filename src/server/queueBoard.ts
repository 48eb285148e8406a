import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

export const QUEUE_BOARD_PATH = '/admin/queues';

/** bull-board's dashboard of the item and batch queues; the auth hook covers it like the API. */
export async function mountQueueBoard(app: FastifyInstance, queues: Queue[]): Promise<void> {
  const adapter = new FastifyAdapter();
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'photowire queues' } },
  });
  adapter.setBasePath(QUEUE_BOARD_PATH);
  await app.register(adapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
}
