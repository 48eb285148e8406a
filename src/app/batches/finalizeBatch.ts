import * as path from 'node:path';
import type { LoadedFeed } from '../../adapters/feeds/loadFeed';
import type { BatchLedger, CatalogStore } from '../../adapters/redis/catalogStore';
import type { BatchExportStore, ExportFile } from '../../adapters/storage/batchExports';
import { isInputError, PhotowireError } from '../../core/errors';
import { itemIdFor } from '../../core/ids';
import { itemJobSchema, type ItemJob } from '../../schemas/jobs';
import type { CatalogRecord, RecordError } from '../../schemas/record';
import { clusterBatch, type ClusterPorts } from './clusterBatch';

const STALLED_TOO_OFTEN = /stalled more than allowable limit/;
/** Most missing positions a warning names; the count is always given. */
const LISTED = 20;

/** An item's job as the queue knows it (the worker entry point reads it from BullMQ). */
export interface ItemJobInfo {
  data: unknown;
  /** BullMQ's state: completed, failed, active, waiting, delayed... */
  state: string;
  failedReason: string;
  stalledCounter: number;
  attemptsMade: number;
  attemptsStarted: number;
}

/** Looks item jobs up by item id, for one finalize run; closed after. */
export interface ItemJobLookup {
  /** The job that carried the item: its own, or the chunk of caption-only items it was in (`expected` names the last chunk's range). */
  find(item: { batchId: string; itemId: string; index: number; expected: number }): Promise<ItemJobInfo | null>;
  close(): Promise<void>;
}

export interface FinalizeLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What finalizing a batch reads and writes, passed in by the batch worker (src/app/jobs/batchWorker.ts). */
export interface FinalizePorts extends ClusterPorts {
  catalog: ClusterPorts['catalog'] &
    Pick<
      CatalogStore,
      'getBatch' | 'recordPositions' | 'markItem' | 'iterateRawRecords' | 'finishBatch' | 'addWarning'
    >;
  /**
   * Where records.ndjson and summary.json go (the storage port: the local folder or a bucket, at
   * content-stable keys), each written whole, summary.json last: a re-run rewrites them in place.
   */
  exports: Pick<BatchExportStore, 'write'>;
  /** Reads the batch's feed again, for items whose job is gone. */
  feeds: { load(feedPath: string): Promise<LoadedFeed> };
  itemJobs: () => ItemJobLookup;
  /** The failed record of an item (the item pipeline's: caption, credit and rights as far as they go). */
  failedRecord(job: ItemJob, error: RecordError): CatalogRecord;
  /** summary.json's content (src/app/batches/summarizeBatch.ts). */
  summarize(batchId: string): Promise<unknown>;
  logger: FinalizeLogger;
}

/**
 * The feed item at each batch index, for items whose job is gone: read again from the feed, and
 * only if it still has the batch's content (same batch id). Null when it does not, or cannot be
 * read (moved, an HTTP feed): the record then keeps what the ledger knows (feed, place).
 */
async function feedItemsFor(ports: FinalizePorts, batchId: string, feedPath: string): Promise<LoadedFeed | null> {
  try {
    const feed = await ports.feeds.load(feedPath);
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
async function recordLostItems(ports: FinalizePorts, ledger: BatchLedger, have: Set<number>): Promise<number> {
  const batchId = ledger.id;
  const jobs = ports.itemJobs();
  let feed: Promise<LoadedFeed | null> | null = null;
  let added = 0;
  try {
    for (let index = 0; index < ledger.expected; index++) {
      if (have.has(index)) continue;
      const itemId = itemIdFor(batchId, index);
      const job = await jobs.find({ batchId, itemId, index, expected: ledger.expected });
      const parsed = job ? itemJobSchema.safeParse(job.data) : null;
      const state = job ? job.state : 'gone';
      let payload: ItemJob | null = parsed?.success ? { ...parsed.data, index } : null;
      if (!payload) {
        feed ??= feedItemsFor(ports, batchId, ledger.feed);
        const f = await feed;
        const item = f?.items[index] ?? {
          source: { file: ledger.feed, position: index, format: ledger.format },
          captionRaw: '',
          iptc: {},
          image: null,
        };
        payload = { batchId, itemId, index, root: f?.root ?? path.dirname(ledger.feed), item };
      }
      const label = payload.item.image ?? `${ledger.feed} item ${payload.item.source.position + 1}`;
      let error: RecordError;
      let attempts = 1;
      if (job && state === 'failed') {
        const reason = job.failedReason || 'the job failed without a reason';
        error = STALLED_TOO_OFTEN.test(reason)
          ? {
              code: 'WORKER_LOST',
              message: `${label}: the worker processing it died or stopped answering ${job.stalledCounter} times (killed, out of memory, or a crash on this photo); see the worker logs, then \`photowire retry ${itemId}\``,
            }
          : { code: 'INTERNAL', message: reason };
        attempts = Math.max(job.attemptsMade, job.attemptsStarted, 1);
      } else {
        const why =
          state === 'gone'
            ? 'its job no longer exists (the item queue was emptied or cleaned, or Redis lost its data)'
            : state === 'completed'
              ? 'its job completed but its record is missing (Redis lost data after it was written)'
              : `its job is still ${state} but was detached from the batch (removed from the batch's flow)`;
        error = {
          code: 'WORKER_LOST',
          message: `${label}: the batch was closing and the item was never recorded: ${why}; \`photowire retry ${itemId}\` runs it again`,
        };
        if (job) attempts = Math.max(job.attemptsMade, job.attemptsStarted, 1);
      }
      await ports.catalog.markItem(ports.failedRecord(payload, error), { error, attempts });
      ports.logger.warn(
        { batchId, itemId, index, state, code: error.code },
        'item ended without a record: recorded as failed',
      );
      added++;
    }
  } finally {
    await jobs.close();
  }
  return added;
}

/** What a finalize did: closed the ledger, found it of a later round (nothing done), or found no ledger. */
export type FinalizeOutcome = 'closed' | 'stale' | 'no-ledger';

/**
 * Runs once per batch, after its last item: records the items that never reached the ledger,
 * decides the batch's caption clusters in feed order, writes records.ndjson and summary.json
 * (atomically, so a re-run after a crash rewrites them whole) and closes the ledger. The batch is
 * `done` only when ok + failed = expected and records.ndjson holds one line per item; otherwise its
 * warnings say which positions are missing and this throws, so the finalize job runs again (and
 * the next run records them as lost). `round` is the finalize job's (1 for the batch as ingested,
 * a retry's reopen for its own): a finalize of an earlier round than the ledger's changes nothing.
 */
export async function finalizeBatch(ports: FinalizePorts, batchId: string, round = 1): Promise<FinalizeOutcome> {
  const { catalog, logger } = ports;
  const ledger = await catalog.getBatch(batchId);
  if (!ledger) {
    // Redis lost the ledger (restarted without its data): there is nothing to close. The waits
    // notice and say so; re-ingesting the feed (`ingest --wait --recreate`) creates it again.
    logger.error(
      { batchId },
      'batch has no ledger at finalize (Redis lost its data?): nothing closed; ingest the feed again to re-create it',
    );
    return 'no-ledger';
  }
  // A finalize of an earlier round (BullMQ retrying it after a failure, long after `photowire
  // retry` reopened the batch): the ledger, the records and the exports are the current round's
  // finalize's to write. Closing here said "done" while the retried items were still queued.
  if (round < ledger.round) {
    logger.warn(
      { batchId, round, current: ledger.round },
      'finalize of an earlier round: the batch was reopened since; nothing done',
    );
    return 'stale';
  }
  const { expected } = ledger;
  const have = await catalog.recordPositions(batchId);
  if ([...Array(expected).keys()].some((i) => !have.has(i))) await recordLostItems(ports, ledger, have);
  // Caption clusters in feed order, before anything reads the records (src/app/batches/clusterBatch.ts).
  await clusterBatch(ports, batchId, expected);
  // A full or read-only disk must not keep the batch open forever (`run` and `ingest --wait` wait
  // for it): the ledger is closed with the failure shown, and the error rethrown so the finalize
  // job's retries (or `photowire retry`) write the files once there is room.
  let exportError: string | null = null;
  const write = async (name: ExportFile, data: () => string | AsyncIterable<string>) => {
    try {
      await ports.exports.write(batchId, name, data());
    } catch (err) {
      if ((err as { code?: string }).code !== 'STORAGE_FAILED') throw err;
      exportError ??= `STORAGE_FAILED: ${name} could not be written (${(err as Error).message}); the records are in Redis (photowire export ${batchId}) and the file is written again when the finalize job retries or on photowire retry`;
    }
  };
  // A batch export is whole exactly when summary.json exists (written last). A re-run replaces
  // each object whole, in place: the earlier summary stays readable until the new one is written.
  // Written as read, a chunk of records at a time: the batch is never held in memory whole.
  const missing: number[] = [];
  let lines = 0;
  await write('records.ndjson', () =>
    ndjson(catalog.iterateRawRecords(batchId, expected, { onMissing: (i) => missing.push(i) }), () => lines++),
  );
  // The check a reader of records.ndjson relies on: one line per item of the ledger.
  if (!exportError && (lines !== expected || missing.length)) {
    const shown =
      missing
        .slice(0, LISTED)
        .map((i) => i + 1)
        .join(', ') + (missing.length > LISTED ? `, ... (${missing.length} in all)` : '');
    exportError = `RECORDS_MISSING: records.ndjson has ${lines} lines for the ledger's ${expected} items${missing.length ? `; no record at positions ${shown}` : ''}; finalize runs again`;
    logger.error(
      { batchId, lines, expected, missing: missing.slice(0, LISTED) },
      'records.ndjson is short of the ledger',
    );
  }
  const closed = await catalog.finishBatch(batchId, exportError, round);
  if (closed.state === 'stale') {
    // Reopened between the check above and here: records.ndjson is rewritten by that round's finalize.
    logger.warn(
      { batchId, round, current: closed.round },
      'finalize of an earlier round: the batch was reopened while it ran; not closed',
    );
    return 'stale';
  }
  if (closed.state === 'short') {
    const msg = `BATCH_INCOMPLETE: ${closed.ok} ok + ${closed.failed} failed of ${closed.expected} items: the batch stays open and finalize runs again`;
    await catalog.addWarning(batchId, msg);
    logger.error({ batchId, ...closed }, 'batch not closed: items are not all counted');
    throw new Error(msg);
  }
  const summary = await ports.summarize(batchId);
  await write('summary.json', () => JSON.stringify(summary, null, 2) + '\n');
  if (exportError) {
    await catalog.finishBatch(batchId, exportError, round);
    // STORAGE_FAILED (a file not written) or RECORDS_MISSING (lines short of the ledger): both
    // transient, the finalize job runs again with BullMQ's backoff.
    const e = exportError as string;
    throw new PhotowireError(e.startsWith('STORAGE_FAILED:') ? 'STORAGE_FAILED' : 'INTERNAL', e);
  }
  return 'closed';
}

/** Records as stored (JSON text, one line each: JSON.stringify never writes a newline), 500 lines a chunk. */
export async function* ndjson(
  records: AsyncIterable<string>,
  onLine: () => void = () => undefined,
): AsyncGenerator<string> {
  let lines: string[] = [];
  for await (const r of records) {
    lines.push(r);
    onLine();
    if (lines.length === 500) {
      yield lines.join('\n') + '\n';
      lines = [];
    }
  }
  if (lines.length) yield lines.join('\n') + '\n';
}
