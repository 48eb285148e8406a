import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadAnyFeed } from '../../adapters/feeds/loadStorageFeed';
import { finalizeBatch as finalize, type FinalizePorts, type ItemJobLookup } from '../batches/finalizeBatch';
import { QUEUES, jobIds, queuePrefix } from '../../queues/definitions';
import { batchJobSchema } from '../../schemas/jobs';
import { killStoreOf } from '../kills/itemKills';
import type { PipelineContext } from '../pipelineContext';
import { failedRecord } from '../items/processItem';
import { summarizeBatch } from '../batches/summarizeBatch';

/** Item jobs read from BullMQ's item queue, for the items a batch closes without a record of. */
function itemJobLookup(ctx: PipelineContext): ItemJobLookup {
  const queue = new Queue(QUEUES.item, { connection: ctx.redis, prefix: queuePrefix(ctx.config.prefix) });
  return {
    async find(itemId) {
      const job = await Job.fromId(queue, jobIds.item(itemId));
      if (!job) return null;
      const { data, failedReason, stalledCounter, attemptsMade, attemptsStarted } = job;
      return { data, state: await job.getState(), failedReason, stalledCounter, attemptsMade, attemptsStarted };
    },
    close: () => queue.close(),
  };
}

/** The finalize service's ports (src/app/batches/finalizeBatch.ts), from the worker's context. */
export function finalizePorts(ctx: PipelineContext): FinalizePorts {
  return {
    catalog: ctx.catalog,
    captions: ctx.captions,
    photos: ctx.photos,
    kills: killStoreOf(ctx),
    exports: ctx.exports,
    feeds: { load: (feedPath) => loadAnyFeed(ctx.storage, feedPath, ctx.config.maxFeedBytes) },
    itemJobs: () => itemJobLookup(ctx),
    failedRecord: (job, error) => failedRecord(ctx, job, error),
    summarize: (batchId) => summarizeBatch(ctx, batchId),
    logger: ctx.logger,
  };
}

/** Close a batch (records.ndjson, summary.json, the ledger): src/app/batches/finalizeBatch.ts. */
export function finalizeBatch(ctx: PipelineContext, batchId: string): Promise<void> {
  return finalize(finalizePorts(ctx), batchId);
}

export async function handleBatchJob(ctx: PipelineContext, job: Job): Promise<{ records: number }> {
  const parsed = batchJobSchema.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid batch payload: ${parsed.error.message}`);
  const { batchId } = parsed.data;
  const log = ctx.logger.child({ queue: QUEUES.batch, jobId: job.id, batchId });
  const started = performance.now();
  try {
    await finalizeBatch(ctx, batchId);
    const ledger = await ctx.catalog.getBatch(batchId);
    log.info({ durationMs: Math.round(performance.now() - started), ok: ledger?.ok, failed: ledger?.failed }, 'batch done');
    return { records: (ledger?.ok ?? 0) + (ledger?.failed ?? 0) };
  } catch (err) {
    log.error({ durationMs: Math.round(performance.now() - started), err }, 'batch finalize failed');
    throw err;
  }
}

export function createBatchWorker(ctx: PipelineContext, connection: Redis): Worker {
  return new Worker(QUEUES.batch, (job) => handleBatchJob(ctx, job), { connection, prefix: queuePrefix(ctx.config.prefix), concurrency: 4 });
}
