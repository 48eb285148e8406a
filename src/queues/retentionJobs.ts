import { Job, Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, jobIds, queuePrefix } from './definitions';

/** Retry rounds' finalize jobs (`batch-<id>-retry-<n>`, retryItems.ts) looked for past the last one found. */
const ROUND_GAP = 3;

/**
 * The BullMQ side of retention (src/app/retention/retentionPass.ts `jobs` port): a batch's finished
 * jobs (its finalize job, each retry round's, each item's) removed by id. `Queue.remove` removes a
 * job in any finished state with its logs; a job that is not there counts 0. A locked (active) job
 * cannot be removed: BullMQ throws, and the pass stops there (the cursor keeps its place).
 */
export class RetentionJobs {
  private readonly batchQueue: Queue;
  private readonly itemQueue: Queue;
  constructor(connection: ConnectionOptions, prefix: string) {
    const opts = { connection, prefix: queuePrefix(prefix) };
    this.batchQueue = new Queue(QUEUES.batch, opts);
    this.itemQueue = new Queue(QUEUES.item, opts);
  }

  async removeBatchJobs(batchId: string, itemIds: AsyncIterable<string[]>): Promise<number> {
    let n = 0;
    for await (const page of itemIds) n += await this.removeIfThere(this.itemQueue, page.map((id) => jobIds.item(id)));
    n += await this.removeIfThere(this.batchQueue, [jobIds.batch(batchId)]);
    for (let round = 1, misses = 0; misses < ROUND_GAP; round++) {
      const removed = await this.removeIfThere(this.batchQueue, [`${jobIds.batch(batchId)}-retry-${round}`]);
      misses = removed ? 0 : misses + 1;
      n += removed;
    }
    return n;
  }

  /** `Queue.remove` answers 1 for a job that is not there too: the job is looked up first. */
  private async removeIfThere(queue: Queue, ids: string[]): Promise<number> {
    const there = await Promise.all(ids.map((id) => Job.fromId(queue, id)));
    const present = ids.filter((_, i) => there[i] !== undefined);
    await Promise.all(present.map((id) => queue.remove(id, { removeChildren: false })));
    return present.length;
  }

  async close(): Promise<void> {
    await Promise.all([this.batchQueue.close(), this.itemQueue.close()]);
  }
}
