import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import * as path from 'node:path';
import { loadFeed, type LoadedFeed } from '../adapters/feeds/loadFeed';
import type { BatchLedger } from '../adapters/redis/catalogStore';
import { isInputError } from '../core/errors';
import { itemIdFor } from '../core/ids';
import { QUEUES, jobIds } from '../queues/definitions';
import { batchJobSchema, itemJobSchema, type ItemJob } from '../schemas/jobs';
import type { RecordError } from '../schemas/record';
import type { PipelineContext } from './pipelineContext';
import { failedRecord } from './processItem';
import { summarizeBatch } from './summarizeBatch';
import { clusterBatch } from './clusterBatch';

const STALLED_TOO_OFTEN = /stalled more than allowable limit/;
/** Most missing positions a warning names; the count is always given. */
const LISTED = 20;

/**
 * The feed item at each batch index, for items whose job is gone: read again from the feed, and
 * only if it still has the batch's content (same batch id). Null when it does not, or cannot be
 * read (moved, an HTTP feed): the record then keeps what the ledger knows (feed, place).
 */
async function feedItemsFor(ctx: PipelineContext, batchId: string, feedPath: string): Promise<LoadedFeed | null> {
  try {
    const feed = await loadFeed(feedPath, ctx.config.maxFeedBytes);
    return feed.batchId === batchId ? feed : null;
  } catch (err) {
    if (!isInputError(err)) throw err;
    return null;
  }
}

/**
 * Items whose job ended without reaching the ledger get a failed record here, so a batch never
 * closes with a hole: BullMQ fails a job itself when its workers died on it too often (the item
 * handler never runs), a last attempt that cannot reach Redis cannot record its own failure, and a
 * job can be gone altogether (the item queue emptied from the board, obliterated, or lost with
 * Redis's data). The finalize job runs only after every item job has ended (or was removed), so a
 * missing record here is final: it becomes `WORKER_LOST`, which `photowire retry` runs again.
 */
async function recordLostItems(ctx: PipelineContext, ledger: BatchLedger, have: Set<number>): Promise<number> {
  const batchId = ledger.id;
  const queue = new Queue(QUEUES.item, { connection: ctx.redis, prefix: ctx.config.prefix });
  let feed: Promise<LoadedFeed | null> | null = null;
  let added = 0;
  try {
    for (let index = 0; index < ledger.expected; index++) {
      if (have.has(index)) continue;
      const itemId = itemIdFor(batchId, index);
      const job = await Job.fromId(queue, jobIds.item(itemId));
      const parsed = job ? itemJobSchema.safeParse(job.data) : null;
      const state = job ? await job.getState() : 'gone';
      let payload: ItemJob | null = parsed?.success ? { ...parsed.data, index } : null;
      if (!payload) {
        feed ??= feedItemsFor(ctx, batchId, ledger.feed);
        const f = await feed;
        const item = f?.items[index] ?? { source: { file: ledger.feed, position: index, format: ledger.format }, captionRaw: '', iptc: {}, image: null };
        payload = { batchId, itemId, index, root: f?.root ?? path.dirname(ledger.feed), item };
      }
      const label = payload.item.image ?? `${ledger.feed} item ${payload.item.source.position + 1}`;
      let error: RecordError;
      let attempts = 1;
      if (job && state === 'failed') {
        const reason = job.failedReason || 'the job failed without a reason';
        error = STALLED_TOO_OFTEN.test(reason)
          ? { code: 'WORKER_LOST', message: `${label}: the worker processing it died or stopped answering ${job.stalledCounter} times (killed, out of memory, or a crash on this photo); see the worker logs, then \`photowire retry ${itemId}\`` }
          : { code: 'INTERNAL', message: reason };
        attempts = Math.max(job.attemptsMade, job.attemptsStarted, 1);
      } else {
        const why =
          state === 'gone'
            ? 'its job no longer exists (the item queue was emptied or cleaned, or Redis lost its data)'
            : state === 'completed'
              ? 'its job completed but its record is missing (Redis lost data after it was written)'
              : `its job is still ${state} but was detached from the batch (removed from the batch's flow)`;
        error = { code: 'WORKER_LOST', message: `${label}: the batch was closing and the item was never recorded: ${why}; \`photowire retry ${itemId}\` runs it again` };
        if (job) attempts = Math.max(job.attemptsMade, job.attemptsStarted, 1);
      }
      await ctx.catalog.markItem(failedRecord(ctx, payload, error), { error, attempts });
      ctx.logger.warn({ batchId, itemId, index, state, code: error.code }, 'item ended without a record: recorded as failed');
      added++;
    }
  } finally {
    await queue.close();
  }
  return added;
}

/**
 * Runs once per batch, after its last item: writes records.ndjson and summary.json (atomically,
 * so a re-run after a crash rewrites them whole) and closes the ledger. The batch is `done` only
 * when ok + failed = expected and records.ndjson holds one line per item; otherwise its warnings
 * say which positions are missing and the job fails, so BullMQ runs it again (and the next run
 * records them as lost).
 */
export async function finalizeBatch(ctx: PipelineContext, batchId: string): Promise<void> {
  const ledger = await ctx.catalog.getBatch(batchId);
  if (!ledger) {
    // Redis lost the ledger (restarted without its data): there is nothing to close. The waits
    // notice and say so; re-ingesting the feed (`ingest --wait --recreate`) creates it again.
    ctx.logger.error({ batchId }, 'batch has no ledger at finalize (Redis lost its data?): nothing closed; ingest the feed again to re-create it');
    return;
  }
  const { expected } = ledger;
  const have = await ctx.catalog.recordPositions(batchId);
  if ([...Array(expected).keys()].some((i) => !have.has(i))) await recordLostItems(ctx, ledger, have);
  // Caption clusters in feed order, before anything reads the records (src/workers/clusterBatch.ts).
  await clusterBatch(ctx, batchId, expected);
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
  const missing: number[] = [];
  let lines = 0;
  await write('records.ndjson', () => ndjson(ctx.catalog.iterateRecords(batchId, expected, { onMissing: (i) => missing.push(i) }), () => lines++));
  // The check a reader of records.ndjson relies on: one line per item of the ledger.
  if (!exportError && (lines !== expected || missing.length)) {
    const shown = missing.slice(0, LISTED).map((i) => i + 1).join(', ') + (missing.length > LISTED ? `, ... (${missing.length} in all)` : '');
    exportError = `RECORDS_MISSING: records.ndjson has ${lines} lines for the ledger's ${expected} items${missing.length ? `; no record at positions ${shown}` : ''}; finalize runs again`;
    ctx.logger.error({ batchId, lines, expected, missing: missing.slice(0, LISTED) }, 'records.ndjson is short of the ledger');
  }
  const closed = await ctx.catalog.finishBatch(batchId, exportError);
  if (closed.state === 'short') {
    const msg = `BATCH_INCOMPLETE: ${closed.ok} ok + ${closed.failed} failed of ${closed.expected} items: the batch stays open and finalize runs again`;
    await ctx.catalog.addWarning(batchId, msg);
    ctx.logger.error({ batchId, ...closed }, 'batch not closed: items are not all counted');
    throw new Error(msg);
  }
  const summary = await summarizeBatch(ctx, batchId);
  await write('summary.json', () => JSON.stringify(summary, null, 2) + '\n');
  if (exportError) {
    await ctx.catalog.finishBatch(batchId, exportError);
    throw Object.assign(new Error(exportError), { code: (exportError as string).split(':')[0] });
  }
}

async function* ndjson(records: AsyncIterable<unknown>, onLine: () => void = () => undefined): AsyncGenerator<string> {
  let lines: string[] = [];
  for await (const r of records) {
    lines.push(JSON.stringify(r));
    onLine();
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
