import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { isInputError } from '../core/errors';
import { QUEUES } from '../queues/definitions';
import { itemJobSchema } from '../schemas/jobs';
import type { PipelineContext } from './pipelineContext';
import { processItem, settledFailedRecord } from './processItem';

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return code === 'STORAGE_FAILED' ? 'STORAGE_FAILED' : 'INTERNAL';
}

/** Validate, process, persist, log. Bad input fails once for good; anything else retries with backoff. */
export async function handleItemJob(ctx: PipelineContext, job: Job): Promise<{ ok: boolean }> {
  const parsed = itemJobSchema.safeParse(job.data);
  if (!parsed.success) {
    ctx.logger.error({ queue: QUEUES.item, jobId: job.id, issues: parsed.error.issues }, 'invalid item payload');
    throw new UnrecoverableError(`ITEM_INVALID: the job payload does not match the item schema: ${parsed.error.message}`);
  }
  const payload = parsed.data;
  const log = ctx.logger.child({ queue: QUEUES.item, jobId: job.id, batchId: payload.batchId, itemId: payload.itemId });
  const started = performance.now();
  const attempts = job.attemptsMade + 1;
  try {
    const { record, rendered, timings } = await processItem(ctx, payload);
    const catalogStarted = performance.now();
    await ctx.catalog.markItem(record, null);
    const stages = { ...timings, catalog: Math.round((performance.now() - catalogStarted) * 10) / 10 };
    log.info({ durationMs: Math.round(performance.now() - started), rendered, cluster: record.cluster?.id ?? null, stages }, 'item done');
    return { ok: true };
  } catch (err) {
    const durationMs = Math.round(performance.now() - started);
    if (isInputError(err)) {
      const error = { code: err.code, message: err.message };
      await ctx.catalog.markItem(await settledFailedRecord(ctx, payload, error), { error, attempts });
      log.warn({ durationMs, code: err.code, err: err.message }, 'item failed (bad input, not retried)');
      throw new UnrecoverableError(`${err.code}: ${err.message}`);
    }
    const final = attempts >= (job.opts.attempts ?? 1);
    if (final) {
      const error = { code: errorCode(err), message: err instanceof Error ? err.message : String(err) };
      await ctx.catalog.markItem(await settledFailedRecord(ctx, payload, error), { error, attempts });
    }
    log.error({ durationMs, attempts, final, err }, final ? 'item failed after its last attempt' : 'item failed, will retry');
    throw err;
  }
}

export function createItemWorker(ctx: PipelineContext, connection: Redis, concurrency: number): Worker {
  return new Worker(QUEUES.item, (job) => handleItemJob(ctx, job), {
    connection,
    prefix: ctx.config.prefix,
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
