import { Job, type Queue } from 'bullmq';
import { jobIds } from './definitions';
import type { Queues } from './queues';
import { itemIndexOf } from '../core/ids';
import { chunkSizeOf } from './itemJobs';

/** Retry rounds' finalize jobs (`batch-<id>-retry-<n>`, src/app/batches/retryItems.ts) looked for past the last one found. */
const ROUND_GAP = 3;

/**
 * The BullMQ side of retention (src/app/retention/retentionPass.ts `jobs` port): a batch's finished
 * jobs (its item jobs, the chunks of its caption-only items, its finalize job, each retry round's)
 * removed by id. The chunks are named by their index range (src/core/itemChunks.ts), from the chunk
 * size the finalize job carries, so they go before it. `Queue.remove` removes a
 * job in any finished state with its logs; a job that is not there counts 0. A locked (active) job
 * cannot be removed: BullMQ throws, and the pass stops there (the cursor keeps its place).
 */
export class RetentionJobs {
  private readonly batchQueue: Queue;
  private readonly itemQueue: Queue;
  constructor(queues: Queues) {
    this.batchQueue = queues.queue('batch');
    this.itemQueue = queues.queue('item');
  }

  async removeBatchJobs(batchId: string, itemIds: AsyncIterable<string[]>): Promise<number> {
    let n = 0;
    // How many items the batch has: one more than the highest item index, not a count of the
    // pages (HSCAN may name an item twice).
    let items = 0;
    for await (const page of itemIds) {
      for (const id of page) items = Math.max(items, (itemIndexOf(batchId, id) ?? -1) + 1);
      n += await this.removeIfThere(
        this.itemQueue,
        page.map((id) => jobIds.item(id)),
      );
    }
    const chunkSize = await chunkSizeOf(this.batchQueue, batchId);
    if (chunkSize !== null && chunkSize > 1) {
      const chunks: string[] = [];
      for (let from = 0; from < items; from += chunkSize)
        chunks.push(jobIds.chunk(batchId, from, Math.min(from + chunkSize, items)));
      for (let i = 0; i < chunks.length; i += 500)
        n += await this.removeIfThere(this.itemQueue, chunks.slice(i, i + 500));
    }
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
}
