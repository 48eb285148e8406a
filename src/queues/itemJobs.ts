import { Job, type Queue } from 'bullmq';
import { chunkRangeOf } from '../core/itemChunks';
import { batchJobSchema, itemChunkJobSchema, itemJobSchema, type ItemJob } from '../schemas/jobs';
import { jobIds } from './definitions';
import type { Queues } from './queues';

/** The job that carried an item: its own item job, or the chunk of caption-only items it was in. */
export interface CarryingJob {
  job: Job;
  /** The item's payload (from the chunk's, for an item that was in one); null when the job's data is not valid. */
  data: ItemJob | null;
  chunk: boolean;
}

/**
 * Find the job that carried an item (finalize's lost items, `retry`): its item job (photos, retried
 * items, batches enqueued before chunks), else the chunk of its batch index range when the batch
 * was enqueued in chunks of `chunkSize` (src/core/itemChunks.ts). Null when neither is there.
 */
export async function findCarryingJob(
  itemQueue: Queue,
  p: { batchId: string; itemId: string; index: number; expected: number; chunkSize?: number | null },
): Promise<CarryingJob | null> {
  const own = await Job.fromId(itemQueue, jobIds.item(p.itemId));
  if (own) {
    const parsed = itemJobSchema.safeParse(own.data);
    return { job: own, data: parsed.success ? parsed.data : null, chunk: false };
  }
  if (!p.chunkSize || p.chunkSize < 2) return null;
  const { from, to } = chunkRangeOf(p.index, p.chunkSize, p.expected);
  const chunk = await Job.fromId(itemQueue, jobIds.chunk(p.batchId, from, to));
  if (!chunk) return null;
  const parsed = itemChunkJobSchema.safeParse(chunk.data);
  const entry = parsed.success ? parsed.data.items.find((x) => x.index === p.index) : undefined;
  if (parsed.success && !entry) return null;
  const data: ItemJob | null =
    parsed.success && entry
      ? { batchId: p.batchId, itemId: p.itemId, index: p.index, root: parsed.data.root, item: entry.item }
      : null;
  return { job: chunk, data, chunk: true };
}

/** The chunk size a batch was enqueued with, from its finalize job's data (null: one job per item, or the job is gone). */
export async function chunkSizeOf(batchQueue: Queue, batchId: string): Promise<number | null> {
  const job = await Job.fromId(batchQueue, jobIds.batch(batchId));
  const parsed = job ? batchJobSchema.safeParse(job.data) : null;
  return parsed?.success ? (parsed.data.chunkSize ?? null) : null;
}

/**
 * `findCarryingJob` for the items of batches, the chunk size of each batch read once from its
 * finalize job unless given (`known`): what finalize's lost items and `retry` look items up with.
 */
export class CarryingJobs {
  private readonly sizes = new Map<string, Promise<number | null>>();
  constructor(
    private readonly queues: Queues,
    known?: { batchId: string; chunkSize: number | undefined },
  ) {
    if (known?.chunkSize !== undefined) this.sizes.set(known.batchId, Promise.resolve(known.chunkSize));
  }

  async find(p: { batchId: string; itemId: string; index: number; expected: number }): Promise<CarryingJob | null> {
    const itemQueue = this.queues.queue('item');
    const own = await findCarryingJob(itemQueue, p);
    if (own) return own;
    let size = this.sizes.get(p.batchId);
    if (!size) this.sizes.set(p.batchId, (size = chunkSizeOf(this.queues.queue('batch'), p.batchId)));
    return findCarryingJob(itemQueue, { ...p, chunkSize: await size });
  }
}
