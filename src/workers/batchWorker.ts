import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import * as path from 'node:path';
import { itemIdFor } from '../core/ids';
import { QUEUES, jobIds } from '../queues/definitions';
import { batchJobSchema, itemJobSchema } from '../schemas/jobs';
import type { PipelineContext } from './pipelineContext';
import { failedRecord } from './processItem';
import { summarizeBatch } from './summarizeBatch';

const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

/**
 * Items whose job ended without reaching the ledger get a failed record here, so a batch never
 * closes with a hole: BullMQ fails a job itself when its workers died on it too often (the item
 * handler never runs), and a last attempt that cannot reach Redis cannot record its own failure.
 * The finalize job runs only after every item job has ended, so a missing record here is final.
 */
async function recordLostItems(ctx: PipelineContext, batchId: string, expected: number, have: Set<number>): Promise<number> {
  const queue = new Queue(QUEUES.item, { connection: ctx.redis, prefix: ctx.config.prefix });
  let added = 0;
  try {
    for (let position = 0; position < expected; position++) {
      if (have.has(position)) continue;
      const itemId = itemIdFor(batchId, position);
      const job = await Job.fromId(queue, jobIds.item(itemId));
      const payload = job ? itemJobSchema.safeParse(job.data) : null;
      if (!job || !payload?.success || (await job.getState()) !== 'failed') {
        ctx.logger.error({ batchId, itemId, state: job ? await job.getState() : 'gone' }, 'item has no record at finalize and no failed job to take it from');
        continue;
      }
      const reason = job.failedReason || 'the job failed without a reason';
      const error = STALLED_TOO_OFTEN.test(reason)
        ? { code: 'WORKER_LOST', message: `${payload.data.item.image ?? itemId}: the worker processing it died or stopped answering ${job.stalledCounter} times (killed, out of memory, or a crash on this photo); see the worker logs, then \`photowire retry ${itemId}\`` }
        : { code: 'INTERNAL', message: reason };
      await ctx.catalog.markItem(failedRecord(ctx, payload.data, error), { error, attempts: Math.max(job.attemptsMade, job.attemptsStarted, 1) });
      ctx.logger.warn({ batchId, itemId, code: error.code, reason }, 'item ended without a record: recorded as failed');
      added++;
    }
  } finally {
    await queue.close();
  }
  return added;
}

/**
 * Runs once per batch, after its last item: writes records.ndjson and summary.json (atomically,
 * so a re-run after a crash rewrites them whole) and closes the ledger.
 */
export async function finalizeBatch(ctx: PipelineContext, batchId: string): Promise<void> {
  const expected = (await ctx.catalog.getBatch(batchId))?.expected ?? 0;
  const have = await ctx.catalog.recordPositions(batchId);
  if (have.size < expected) await recordLostItems(ctx, batchId, expected, have);
  const dir = ctx.data.batchDir(batchId);
  // A full or read-only disk must not keep the batch open forever (`run` and `ingest --wait` wait
  // for it): the ledger is closed with the failure shown, and the error rethrown so the finalize
  // job's retries (or `photowire retry`) write the files once there is room.
  let exportError: string | null = null;
  const write = async (name: string, data: () => string | AsyncIterable<string>) => {
    try {
      await ctx.data.writeAtomic(path.join(dir, name), data());
    } catch (err) {
      if ((err as { code?: string }).code !== 'STORAGE_FAILED') throw err;
      exportError ??= `STORAGE_FAILED: ${name} could not be written (${(err as Error).message}); the records are in Redis (photowire export ${batchId}) and the file is written again when the finalize job retries or on photowire retry`;
    }
  };
  // Written as read, a chunk of records at a time: the batch is never held in memory whole.
  await write('records.ndjson', () => ndjson(ctx.catalog.iterateRecords(batchId, expected)));
  await ctx.catalog.finishBatch(batchId, exportError);
  const summary = await summarizeBatch(ctx, batchId);
  await write('summary.json', () => JSON.stringify(summary, null, 2) + '\n');
  if (exportError) {
    await ctx.catalog.finishBatch(batchId, exportError);
    throw Object.assign(new Error(exportError), { code: 'STORAGE_FAILED' });
  }
}

async function* ndjson(records: AsyncIterable<unknown>): AsyncGenerator<string> {
  let lines: string[] = [];
  for await (const r of records) {
    lines.push(JSON.stringify(r));
    if (lines.length === 500) {
      yield lines.join('\n') + '\n';
      lines = [];
    }
  }
  if (lines.length) yield lines.join('\n') + '\n';
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
