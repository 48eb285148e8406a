import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { failureCode, failureMessage, isRetryable } from '../items/retryable';
import { JOBS, QUEUES, queuePrefix } from '../../queues/definitions';
import { itemIdFor } from '../../core/ids';
import { itemChunkJobSchema, itemJobSchema, type ItemJob } from '../../schemas/jobs';
import type { ChunkResult } from '../items/itemPipeline';
import type { PipelineContext } from '../pipelineContext';

/**
 * Validate, run the item pipeline (src/app/items/itemPipeline.ts), and tell BullMQ what to do with
 * a failure: bad input fails once for good (UnrecoverableError); a transient fault (a download
 * timeout or 5xx, a storage fault, anything unexpected) is thrown as it is and retried with the
 * job's backoff, PHOTOWIRE_ATTEMPTS attempts in all.
 */
export async function handleItemJob(ctx: PipelineContext, job: Job): Promise<{ ok: boolean } | ChunkResult> {
  if (job.name === JOBS.processChunk) return handleChunkJob(ctx, job);
  const parsed = itemJobSchema.safeParse(job.data);
  if (!parsed.success) {
    ctx.logger.error({ queue: QUEUES.item, jobId: job.id, issues: parsed.error.issues }, 'invalid item payload');
    throw new UnrecoverableError(
      `ITEM_INVALID: the job payload does not match the item schema: ${parsed.error.message}`,
    );
  }
  const payload = parsed.data;
  const log = ctx.logger.child({ queue: QUEUES.item, jobId: job.id, batchId: payload.batchId, itemId: payload.itemId });
  try {
    await ctx.items.handle(payload, { number: job.attemptsMade + 1, max: job.opts.attempts ?? 1 }, log);
    return { ok: true };
  } catch (err) {
    if (!isRetryable(err)) throw new UnrecoverableError(`${failureCode(err)}: ${failureMessage(err)}`);
    throw err;
  }
}

/**
 * A chunk of caption-only items (src/core/itemChunks.ts): validated like an item job, then the
 * item pipeline's `handleChunk`. An item with bad input fails alone inside it; a transient fault
 * is thrown as it is, so BullMQ runs the chunk again (its stored items are skipped).
 */
async function handleChunkJob(ctx: PipelineContext, job: Job): Promise<ChunkResult> {
  const parsed = itemChunkJobSchema.safeParse(job.data);
  if (!parsed.success) {
    ctx.logger.error({ queue: QUEUES.item, jobId: job.id, issues: parsed.error.issues }, 'invalid chunk payload');
    throw new UnrecoverableError(
      `ITEM_INVALID: the job payload does not match the chunk schema: ${parsed.error.message}`,
    );
  }
  const { batchId, root, items } = parsed.data;
  const jobs: ItemJob[] = items.map(({ index, item }) => ({
    batchId,
    itemId: itemIdFor(batchId, index),
    index,
    root,
    item,
  }));
  const log = ctx.logger.child({ queue: QUEUES.item, jobId: job.id, batchId });
  const result = await ctx.items.handleChunk(
    batchId,
    jobs,
    { number: job.attemptsMade + 1, max: job.opts.attempts ?? 1 },
    log,
  );
  log.info({ items: jobs.length, ...result }, 'chunk done');
  return result;
}

export function createItemWorker(ctx: PipelineContext, connection: Redis, concurrency: number): Worker {
  return new Worker(QUEUES.item, (job) => handleItemJob(ctx, job), {
    connection,
    prefix: queuePrefix(ctx.config.prefix),
    concurrency,
    // sharp works off the event loop (libuv pool), so lock renewal keeps its timer; the long lock
    // only covers a 200 MP photo on a loaded box.
    lockDuration: ctx.config.lockMs,
    // A killed worker's items are taken again within about two of these after its lock expires.
    stalledInterval: Math.min(30_000, ctx.config.lockMs),
    // An item whose worker dies a third time (a photo that crashes the decoder, say) fails for good;
    // finalizeBatch then records it as WORKER_LOST instead of leaving a hole in the batch.
    maxStalledCount: 2,
  });
}
