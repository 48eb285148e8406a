import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import * as path from 'node:path';
import { QUEUES } from '../queues/definitions';
import { batchJobSchema } from '../schemas/jobs';
import type { PipelineContext } from './pipelineContext';
import { summarizeBatch } from './summarizeBatch';

/**
 * Runs once per batch, after its last item: writes records.ndjson and summary.json (atomically,
 * so a re-run after a crash rewrites them whole) and closes the ledger.
 */
export async function finalizeBatch(ctx: PipelineContext, batchId: string): Promise<void> {
  const records = await ctx.catalog.getRecords(batchId);
  const dir = ctx.data.batchDir(batchId);
  await ctx.data.writeAtomic(path.join(dir, 'records.ndjson'), records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
  await ctx.catalog.finishBatch(batchId);
  const summary = await summarizeBatch(ctx, batchId);
  await ctx.data.writeAtomic(path.join(dir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
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
  return new Worker(QUEUES.batch, (job) => handleBatchJob(ctx, job), { connection, prefix: ctx.config.prefix, concurrency: 4 });
}
