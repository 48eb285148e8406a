import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUES, queuePrefix } from './definitions';

/** How many workers consume each queue a batch needs: items (and chunks), and the batch's finalize. */
export interface WorkerCounts {
  item: number;
  batch: number;
}

/**
 * The workers connected to the item and batch queues now, as BullMQ counts them (`getWorkersCount`:
 * the Redis connections a Worker names after its queue, from CLIENT LIST, on every node of a
 * cluster). One Queue per queue, on the caller's connection, kept for repeated checks.
 */
export class WorkerPresence {
  private readonly item: Queue;
  private readonly batch: Queue;

  constructor(redis: Redis, prefix: string) {
    this.item = new Queue(QUEUES.item, { connection: redis, prefix: queuePrefix(prefix) });
    this.batch = new Queue(QUEUES.batch, { connection: redis, prefix: queuePrefix(prefix) });
  }

  async counts(): Promise<WorkerCounts> {
    const [item, batch] = await Promise.all([this.item.getWorkersCount(), this.batch.getWorkersCount()]);
    return { item, batch };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.item.close(), this.batch.close()]);
  }
}
