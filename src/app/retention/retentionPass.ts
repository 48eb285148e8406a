import type { CaptionExpiryReport } from '../../adapters/redis/captionIndexSubject';
import {
  decideBatch,
  emptyReport,
  retentionCutoff,
  runExpired,
  stepsAfter,
  type BatchFacts,
  type RemovalStep,
  type RetentionReport,
  type ArchivedEntry,
  type RetentionCursor,
} from '../../core/retention/plan';

export type { ArchivedEntry, RetentionCursor };

/**
 * One retention pass: batches finished more than PHOTOWIRE_RETENTION_DAYS ago leave
 * Redis (records, ledger, indexes, facets, counters, member lists, their BullMQ jobs), their export
 * staying in storage; run rows older than the window go too. A batch whose export is missing is
 * kept and named in the report and the log.
 *
 * Idempotent and resumable: the cursor names the batch being removed and its last finished step
 * (src/core/retention/plan.ts REMOVAL_STEPS), so a pass killed midway is finished by the next; a
 * batch left without its ledger but archived is finished too. Bounded work per step: candidates a
 * page at a time, keys by SCAN pages, UNLINK.
 *
 * All I/O through the ports below (the Redis adapter src/adapters/redis/retentionStore.ts, the
 * BullMQ one src/queues/retentionJobs.ts, the export reader src/adapters/storage/batchArchive.ts).
 */

export interface RetentionCatalogPort {
  /** Batch ids created before `beforeMs`, oldest first, `limit` from `offset` (the batch list is scored by creation). */
  candidates(beforeMs: number, offset: number, limit: number): Promise<string[]>;
  facts(batchId: string): Promise<BatchFacts & { entry: Omit<ArchivedEntry, 'archivedAt'> | null }>;
  /** Add the batch to the archived index (idempotent). */
  archive(entry: ArchivedEntry): Promise<void>;
  unlinkLedger(batchId: string): Promise<number>;
  /** The batch's item ids, a page at a time (for their jobs). */
  itemIds(batchId: string): AsyncIterable<string[]>;
  /** UNLINK every key of the batch's slot, SCAN page by page; returns how many. */
  unlinkBatchKeys(batchId: string): Promise<number>;
  /** Remove the batch from the batch list. */
  unlist(batchId: string): Promise<void>;
  getCursor(): Promise<RetentionCursor | null>;
  setCursor(c: RetentionCursor | null): Promise<void>;
}

export interface RetentionJobsPort {
  /** Remove the batch's finished BullMQ jobs (its finalize job and the item jobs named); returns how many were there. */
  removeBatchJobs(batchId: string, itemIds: AsyncIterable<string[]>): Promise<number>;
}

export interface RetentionRunsPort {
  /** Run rows started before `beforeMs`, oldest first: id, schedule, state, startedAt. */
  runsBefore(
    beforeMs: number,
    offset: number,
    limit: number,
  ): Promise<Array<{ id: string; schedule: string; state: string; startedAt: string }>>;
  removeRuns(runs: Array<{ id: string; schedule: string }>): Promise<number>;
}

export interface ExportArchivePort {
  /** The export files missing in storage ([] when records.ndjson and summary.json are both there). */
  missing(batchId: string): Promise<string[]>;
}

export interface RetentionLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The caption index's own retention (PHOTOWIRE_DEDUP_RETENTION_DAYS): clusters not seen within the
 * window leave it. `SubjectIndex.expireIdle()` (src/adapters/redis/captionIndexSubject.ts) is one.
 */
export interface CaptionIndexExpiryPort {
  expireIdle(opts: { now: Date; retentionDays: number; dryRun?: boolean }): Promise<CaptionExpiryReport>;
}

export type { CaptionExpiryReport };

export interface RetentionPorts {
  catalog: RetentionCatalogPort;
  jobs: RetentionJobsPort;
  runs: RetentionRunsPort;
  exports: ExportArchivePort;
  logger: RetentionLogger;
  /** When given (with RetentionOptions.dedupRetentionDays), the pass also expires idle caption clusters. */
  captionIndex?: CaptionIndexExpiryPort;
}

export interface RetentionOptions {
  now: Date;
  retentionDays: number;
  dryRun?: boolean;
  /** Most batches removed in one pass (the rest wait for the next); default 1000. */
  maxBatches?: number;
  /** Candidates read per page; default 100. */
  pageSize?: number;
  /** PHOTOWIRE_DEDUP_RETENTION_DAYS: the caption index's window (with ports.captionIndex). */
  dedupRetentionDays?: number;
  /** Test hook: called after each removal step (a test kills the pass here). */
  afterStep?: (batchId: string, step: RemovalStep) => Promise<void> | void;
}

export async function runRetentionPass(
  ports: RetentionPorts,
  opts: RetentionOptions,
): Promise<RetentionReport & { captionIndex?: CaptionExpiryReport }> {
  const cutoffMs = retentionCutoff(opts.now, opts.retentionDays);
  const dryRun = opts.dryRun ?? false;
  const report = emptyReport(opts.now, cutoffMs, dryRun);
  const maxBatches = opts.maxBatches ?? 1000;
  const pageSize = opts.pageSize ?? 100;
  const { catalog, logger } = ports;
  logger.info({ cutoff: report.cutoff, retentionDays: opts.retentionDays, dryRun }, 'retention pass starts');

  // A pass killed midway: finish the batch it was removing first.
  const cursor = dryRun ? null : await catalog.getCursor();
  if (cursor) {
    await removeBatch(ports, cursor.batchId, stepsAfter(cursor.step), null, report, opts);
    report.resumed.push(cursor.batchId);
  }

  let offset = 0;
  let done = 0;
  pages: for (;;) {
    const ids = await catalog.candidates(cutoffMs, offset, pageSize);
    if (ids.length === 0) break;
    let stayed = 0;
    for (const id of ids) {
      if (done >= maxBatches) {
        report.stoppedEarly = true;
        break pages;
      }
      const facts = await catalog.facts(id);
      const d = decideBatch(facts, cutoffMs);
      if (d.action === 'keep') {
        report.kept++;
        stayed++;
        continue;
      }
      if (d.action === 'resume') {
        if (dryRun) report.removed.push(id);
        else {
          await removeBatch(ports, id, stepsAfter('ledger'), null, report, opts);
          report.resumed.push(id);
        }
        done++;
        if (dryRun) stayed++;
        continue;
      }
      const missing = await ports.exports.missing(id);
      if (missing.length > 0) {
        report.keptNoExport.push({ id, missing });
        logger.warn(
          { batchId: id, missing },
          'retention keeps a batch past the window: its export is missing in storage',
        );
        stayed++;
        continue;
      }
      report.removed.push(id);
      // Failed items are kept until retried or expired: they expire with their batch (their entries are of its slot).
      report.failedExpired += facts.entry?.failed ?? 0;
      done++;
      if (dryRun) {
        stayed++;
        continue;
      }
      await removeBatch(
        ports,
        id,
        stepsAfter(null),
        facts.entry ? { ...facts.entry, archivedAt: opts.now.toISOString() } : null,
        report,
        opts,
      );
    }
    // Removed batches left the list: the next page starts after those that stayed.
    offset += stayed;
    if (ids.length < pageSize) break;
  }

  await expireRuns(ports, cutoffMs, dryRun, pageSize, report);
  let captionIndex: CaptionExpiryReport | undefined;
  if (ports.captionIndex && opts.dedupRetentionDays !== undefined) {
    captionIndex = await ports.captionIndex.expireIdle({
      now: opts.now,
      retentionDays: opts.dedupRetentionDays,
      dryRun,
    });
    logger.info(
      { ...captionIndex, dedupRetentionDays: opts.dedupRetentionDays, dryRun },
      'retention pass: caption index',
    );
  }
  logger.info(
    {
      removed: report.removed.length,
      resumed: report.resumed.length,
      keptNoExport: report.keptNoExport.map((k) => k.id),
      kept: report.kept,
      keysRemoved: report.keysRemoved,
      jobsRemoved: report.jobsRemoved,
      runsRemoved: report.runsRemoved,
      failedExpired: report.failedExpired,
      stoppedEarly: report.stoppedEarly,
      dryRun,
    },
    'retention pass done',
  );
  return captionIndex ? { ...report, captionIndex } : report;
}

async function removeBatch(
  ports: RetentionPorts,
  batchId: string,
  steps: RemovalStep[],
  entry: ArchivedEntry | null,
  report: RetentionReport,
  opts: RetentionOptions,
): Promise<void> {
  const { catalog } = ports;
  for (const step of steps) {
    switch (step) {
      case 'archive-entry':
        if (entry) await catalog.archive(entry);
        break;
      case 'ledger':
        report.keysRemoved += await catalog.unlinkLedger(batchId);
        break;
      case 'jobs':
        report.jobsRemoved += await ports.jobs.removeBatchJobs(batchId, catalog.itemIds(batchId));
        break;
      case 'keys':
        report.keysRemoved += await catalog.unlinkBatchKeys(batchId);
        break;
      case 'list':
        await catalog.unlist(batchId);
        break;
    }
    await catalog.setCursor(step === 'list' ? null : { batchId, step });
    ports.logger.info({ batchId, step }, 'retention step');
    await opts.afterStep?.(batchId, step);
  }
}

async function expireRuns(
  ports: RetentionPorts,
  cutoffMs: number,
  dryRun: boolean,
  pageSize: number,
  report: RetentionReport,
): Promise<void> {
  let offset = 0;
  for (;;) {
    const runs = await ports.runs.runsBefore(cutoffMs, offset, pageSize);
    if (runs.length === 0) return;
    const expired = runs.filter((r) => runExpired(r, cutoffMs));
    if (dryRun) report.runsRemoved += expired.length;
    else if (expired.length > 0) report.runsRemoved += await ports.runs.removeRuns(expired);
    offset += dryRun ? runs.length : runs.length - expired.length;
    if (runs.length < pageSize) return;
  }
}
