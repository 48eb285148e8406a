import type { FailedItem } from '../../adapters/redis/catalogStore';
import type { PipelineContext } from '../pipelineContext';

export interface BatchSummary {
  batchId: string;
  feed: string;
  format: string;
  state: string;
  items: number;
  ok: number;
  failed: number;
  pending: number;
  /** done, every item counted (ok + failed = items) and records.ndjson written whole: nothing to look into but the failures. */
  complete: boolean;
  photos: number;
  captionOnly: number;
  distinctCaptions: number;
  clusters: number;
  /** Duplicates within the batch: members of a cluster whose canonical item is another item of this batch (identical or near-identical). */
  duplicates: number;
  /** Of `duplicates`, those whose caption is the canonical one word for word; the rest are near-duplicates. */
  identical: number;
  /** Items that joined a cluster whose canonical item came in an earlier batch (not one of the same run's, see joinedThisRun). */
  joinedEarlier: number;
  /** Items that joined a cluster begun by another feed of the same run (`run a b c`): 0 when the summary was not asked for a run. */
  joinedThisRun: number;
  lowConfidenceCredits: number;
  /** Items of the feed that are not pictures (text, video, audio, packages), by kind: `{ text: 1, video: 1 }`. */
  skipped: Record<string, number>;
  /** Processing time: created -> first finished, plus each retry round's reopened -> finished; null until done. */
  processingMs: number | null;
  /** finishedAt - createdAt: includes the time between a batch's end and a late retry. Null until done. */
  elapsedMs: number | null;
  /** The elapsed time, as before processingMs existed (kept for compatibility; docs/COMMANDS.md, what a batch summary counts). */
  durationMs: number | null;
  createdAt: string;
  finishedAt: string | null;
  /** Where records.ndjson is (the storage port's location: a file path, or `s3://bucket/prefix/batches/<id>/records.ndjson`). */
  records: string;
  /** Where the renditions are, the same way. */
  renditions: string;
  failures: FailedItem[];
  warnings: string[];
}

/**
 * What a person wants to know about a batch, from the ledger and the batch's counters, which the
 * atomic step that stores a record keeps (CatalogStore.counters): no record is read, so the
 * summary of a 100,000-item batch costs what a 10-item one does. A batch stored by a version
 * before the counters existed is indexed once first (CatalogStore.ensureIndexed).
 */
export async function summarizeBatch(
  ctx: Pick<PipelineContext, 'catalog' | 'exports'>,
  batchId: string,
  opts: { sameRun?: string[] } = {},
): Promise<BatchSummary | null> {
  const ledger = await ctx.catalog.getBatch(batchId);
  if (!ledger) return null;
  await ctx.catalog.ensureIndexed(batchId, ledger.expected);
  // Feeds taken together finalize in any order: the first to finish begins the clusters the others
  // join. Those batches are the same run's, not earlier ones ("3 joined earlier clusters" was printed
  // for the first `run --sample`).
  const [failures, counts, joinedThisRun] = await Promise.all([
    ctx.catalog.getFailed(batchId),
    ctx.catalog.counters(batchId),
    ctx.catalog.joinedFrom(batchId, opts.sameRun ?? []),
  ]);
  const elapsedMs =
    ledger.state === 'done' && ledger.finishedAt ? Date.parse(ledger.finishedAt) - Date.parse(ledger.createdAt) : null;
  return {
    batchId,
    feed: ledger.feed,
    format: ledger.format,
    state: ledger.state,
    items: ledger.expected,
    ok: ledger.ok,
    failed: ledger.failed,
    pending: Math.max(0, ledger.expected - ledger.ok - ledger.failed),
    complete: ledger.state === 'done' && ledger.ok + ledger.failed === ledger.expected && !ledger.exportError,
    photos: counts.photos,
    captionOnly: counts.captionOnly,
    distinctCaptions: counts.distinctCaptions,
    clusters: counts.clusters,
    duplicates: counts.duplicates,
    identical: Math.min(counts.identical, counts.duplicates),
    joinedEarlier: Math.max(0, counts.joinedEarlier - joinedThisRun),
    joinedThisRun: Math.min(joinedThisRun, counts.joinedEarlier),
    lowConfidenceCredits: counts.lowConfidence,
    skipped: ledger.skipped,
    processingMs: elapsedMs === null ? null : (ledger.processingMs ?? elapsedMs),
    elapsedMs,
    durationMs: elapsedMs,
    createdAt: ledger.createdAt,
    finishedAt: ledger.finishedAt,
    records: ctx.exports.location(batchId, 'records.ndjson'),
    renditions: ctx.exports.renditionsLocation(),
    failures,
    warnings: ledger.exportError ? [...ledger.warnings, ledger.exportError] : ledger.warnings,
  };
}
