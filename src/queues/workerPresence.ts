import type { Queue } from 'bullmq';
import type { Queues } from './queues';

/** How many workers consume each queue a batch needs: items (and chunks), and the batch's finalize. */
export interface WorkerCounts {
  item: number;
  batch: number;
}

/**
 * The workers connected to the item and batch queues now, as BullMQ counts them (`getWorkersCount`:
 * the Redis connections a Worker names after its queue, from CLIENT LIST, on every node of a
 * cluster), on the process's queues (src/queues/queues.ts).
 */
export class WorkerPresence {
  private readonly item: Queue;
  private readonly batch: Queue;

  constructor(queues: Queues) {
    this.item = queues.queue('item');
    this.batch = queues.queue('batch');
  }

  async counts(): Promise<WorkerCounts> {
    const [item, batch] = await Promise.all([this.item.getWorkersCount(), this.batch.getWorkersCount()]);
    return { item, batch };
  }
}
