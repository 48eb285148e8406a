import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { failureCode, failureMessage, isRetryable } from '../items/retryable';
import { QUEUES, queuePrefix } from '../../queues/definitions';
import { itemJobSchema } from '../../schemas/jobs';
import type { PipelineContext } from '../pipelineContext';
import { itemPipelineOf } from '../items/processItem';

/**
 * Validate, run the item pipeline (src/app/items/itemPipeline.ts), and tell BullMQ what to do with
 * a failure: bad input fails once for good (UnrecoverableError); a transient fault (a download
 * timeout or 5xx, a storage fault, anything unexpected) is thrown as it is and retried with the
 * job's backoff, PHOTOWIRE_ATTEMPTS attempts in all.
 */
export async function handleItemJob(ctx: PipelineContext, job: Job): Promise<{ ok: boolean }> {
  const parsed = itemJobSchema.safeParse(job.data);
  if (!parsed.success) {
    ctx.logger.error({ queue: QUEUES.item, jobId: job.id, issues: parsed.error.issues }, 'invalid item payload');
    throw new UnrecoverableError(`ITEM_INVALID: the job payload does not match the item schema: ${parsed.error.message}`);
  }
  const payload = parsed.data;
  const log = ctx.logger.child({ queue: QUEUES.item, jobId: job.id, batchId: payload.batchId, itemId: payload.itemId });
  try {
    await itemPipelineOf(ctx).handle(payload, { number: job.attemptsMade + 1, max: job.opts.attempts ?? 1 }, log);
    return { ok: true };
  } catch (err) {
    if (!isRetryable(err)) throw new UnrecoverableError(`${failureCode(err)}: ${failureMessage(err)}`);
    throw err;
  }
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
