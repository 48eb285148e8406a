import { UnrecoverableError, WaitingChildrenError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadAnyFeed } from '../../adapters/feeds/loadStorageFeed';
import {
  finalizeBatch as finalize,
  type FinalizeOutcome,
  type FinalizePorts,
  type ItemJobLookup,
} from '../batches/finalizeBatch';
import { QUEUES, queuePrefix } from '../../queues/definitions';
import { CarryingJobs } from '../../queues/itemJobs';
import { batchJobSchema } from '../../schemas/jobs';
import type { PipelineContext } from '../pipelineContext';
import { failedRecord } from '../items/processItem';
import { summarizeBatch } from '../batches/summarizeBatch';

/**
 * Item jobs read from BullMQ's item queue, for the items a batch closes without a record of: an
 * item's own job, or the chunk that carried it. The chunk size is the finalize job's (`chunkSize`),
 * else (a retry round's finalize job, a direct call) the batch's first finalize job's.
 */
function itemJobLookup(ctx: PipelineContext, chunkSize: number | undefined): ItemJobLookup {
  let jobs: CarryingJobs | null = null;
  return {
    async find(p) {
      jobs ??= new CarryingJobs(ctx.queues, { batchId: p.batchId, chunkSize });
      const found = await jobs.find(p);
      if (!found) return null;
      const { job } = found;
      const { failedReason, stalledCounter, attemptsMade, attemptsStarted } = job;
      return {
        data: found.data ?? job.data,
        state: await job.getState(),
        failedReason,
        stalledCounter,
        attemptsMade,
        attemptsStarted,
      };
    },
    // The queues are the process's (PipelineContext.queues): nothing of its own to close.
    close: async () => undefined,
  };
}

/** The finalize service's ports (src/app/batches/finalizeBatch.ts), from the worker's context. */
export function finalizePorts(ctx: PipelineContext, chunkSize?: number): FinalizePorts {
  return {
    catalog: ctx.catalog,
    captions: ctx.captions,
    stories: ctx.stories,
    photos: ctx.photos,
    kills: ctx.kills,
    exports: ctx.exports,
    feeds: { load: (feedPath) => loadAnyFeed(ctx.storage, feedPath, ctx.config.maxFeedBytes) },
    itemJobs: () => itemJobLookup(ctx, chunkSize),
    failedRecord: (job, error) => failedRecord(ctx, job, error),
    summarize: (batchId) => summarizeBatch(ctx, batchId),
    logger: ctx.logger,
  };
}

/** Close a batch (records.ndjson, summary.json, the ledger): src/app/batches/finalizeBatch.ts. */
export function finalizeBatch(
  ctx: PipelineContext,
  batchId: string,
  chunkSize?: number,
  round?: number,
): Promise<FinalizeOutcome> {
  return finalize(finalizePorts(ctx, chunkSize), batchId, round);
}

/**
 * The finalize job: `token` is the worker's lock token (absent in a direct call). Its children
 * are checked before anything is written: a finalize taken while some of its item jobs are still
 * to run (Redis refused writes mid-batch, or a job re-attached by hand) would record them as lost
 * and close the batch early, and BullMQ would then fail the job ("has pending dependencies") and
 * run it again and again. It goes back to waiting for them instead, with nothing written.
 */
export async function handleBatchJob(
  ctx: PipelineContext,
  job: Job,
  token?: string,
): Promise<{ records: number; stale?: true; waiting?: number }> {
  const parsed = batchJobSchema.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid batch payload: ${parsed.error.message}`);
  const { batchId, chunkSize, round } = parsed.data;
  const log = ctx.logger.child({ queue: QUEUES.batch, jobId: job.id, batchId });
  const { unprocessed = 0 } = await job.getDependenciesCount({ unprocessed: true });
  if (unprocessed > 0) {
    log.warn(
      { pending: unprocessed },
      'finalize taken while item jobs of the batch are still to run: waiting for them, nothing written',
    );
    // moveToWaitingChildren is false when the last child ended in between: then finalize now.
    if (token && (await job.moveToWaitingChildren(token))) throw new WaitingChildrenError();
    if (!token) return { records: 0, waiting: unprocessed };
  }
  const started = performance.now();
  try {
    const outcome = await finalizeBatch(ctx, batchId, chunkSize, round);
    if (outcome === 'stale') return { records: 0, stale: true };
    const ledger = await ctx.catalog.getBatch(batchId);
    log.info(
      { durationMs: Math.round(performance.now() - started), ok: ledger?.ok, failed: ledger?.failed },
      'batch done',
    );
    return { records: (ledger?.ok ?? 0) + (ledger?.failed ?? 0) };
  } catch (err) {
    log.error({ durationMs: Math.round(performance.now() - started), err }, 'batch finalize failed');
    throw err;
  }
}

export function createBatchWorker(ctx: PipelineContext, connection: Redis): Worker {
  return new Worker(QUEUES.batch, (job, token) => handleBatchJob(ctx, job, token), {
    connection,
    prefix: queuePrefix(ctx.config.prefix),
    concurrency: 4,
  });
}
