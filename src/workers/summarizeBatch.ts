import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { FailedItem } from '../adapters/redis/catalogStore';
import type { PipelineContext } from './pipelineContext';

const ITEM_SUFFIX = /-\d{4,}$/;

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
  /** Near-duplicates within the batch: members of a cluster whose canonical item is another item of this batch. */
  duplicates: number;
  /** Items that joined a cluster whose canonical item came in an earlier batch. */
  joinedEarlier: number;
  lowConfidenceCredits: number;
  /** Items of the feed that are not pictures (text, video, audio, packages), by kind: `{ text: 1, video: 1 }`. */
  skipped: Record<string, number>;
  /** Processing time: created -> first finished, plus each retry round's reopened -> finished; null until done. */
  processingMs: number | null;
  /** finishedAt - createdAt: includes the time between a batch's end and a late retry. Null until done. */
  elapsedMs: number | null;
  /** The elapsed time, as before processingMs existed (kept for compatibility; README "Batch summary"). */
  durationMs: number | null;
  createdAt: string;
  finishedAt: string | null;
  records: string;
  renditions: string;
  failures: FailedItem[];
  warnings: string[];
}

/**
 * What a person wants to know about a batch, from the ledger and its records. The records are
 * read a chunk at a time and only counted (captions by digest), so a summary of a 100,000-item
 * batch costs a few MB, not the whole batch in memory.
 */
export async function summarizeBatch(ctx: PipelineContext, batchId: string): Promise<BatchSummary | null> {
  const ledger = await ctx.catalog.getBatch(batchId);
  if (!ledger) return null;
  const failures = await ctx.catalog.getFailed(batchId);
  const elapsedMs = ledger.state === 'done' && ledger.finishedAt ? Date.parse(ledger.finishedAt) - Date.parse(ledger.createdAt) : null;
  const clusters = new Set<string>();
  const captions = new Set<string>();
  let photos = 0;
  let captionOnly = 0;
  let duplicates = 0;
  let joinedEarlier = 0;
  let lowConfidenceCredits = 0;
  for await (const r of ctx.catalog.iterateRecords(batchId, ledger.expected)) {
    if (r.error) continue;
    if (r.image) photos++;
    else captionOnly++;
    if (r.cluster) {
      clusters.add(r.cluster.id);
      // Item ids are `<batchId>-0007` (itemIdFor): the canonical item's batch is its id less the suffix.
      if (r.cluster.canonicalId.replace(ITEM_SUFFIX, '') !== batchId) joinedEarlier++;
      else if (r.cluster.canonicalId !== r.id) duplicates++;
    }
    if (r.caption.trim() !== '') captions.add(createHash('sha1').update(r.caption).digest('base64'));
    if (r.credit.confidence === 'low') lowConfidenceCredits++;
  }
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
    photos,
    captionOnly,
    distinctCaptions: captions.size,
    clusters: clusters.size,
    duplicates,
    joinedEarlier,
    lowConfidenceCredits,
    skipped: ledger.skipped,
    processingMs: elapsedMs === null ? null : (ledger.processingMs ?? elapsedMs),
    elapsedMs,
    durationMs: elapsedMs,
    createdAt: ledger.createdAt,
    finishedAt: ledger.finishedAt,
    records: path.join(ctx.data.root, ctx.data.batchDir(batchId), 'records.ndjson'),
    renditions: path.join(ctx.data.root, 'renditions'),
    failures,
    warnings: ledger.exportError ? [...ledger.warnings, ledger.exportError] : ledger.warnings,
  };
}
