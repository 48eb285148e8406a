import { Queue, type ConnectionOptions } from 'bullmq';
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
    for await (const page of itemIds) {
      const removed = await Promise.all(page.map((id) => this.itemQueue.remove(jobIds.item(id), { removeChildren: false })));
      n += removed.reduce((a, b) => a + b, 0);
    }
    n += await this.batchQueue.remove(jobIds.batch(batchId), { removeChildren: false });
    for (let round = 1, misses = 0; misses < ROUND_GAP; round++) {
      const r = await this.batchQueue.remove(`${jobIds.batch(batchId)}-retry-${round}`, { removeChildren: false });
      misses = r ? 0 : misses + 1;
      n += r;
    }
    return n;
  }

  async close(): Promise<void> {
    await Promise.all([this.batchQueue.close(), this.itemQueue.close()]);
  }
}
