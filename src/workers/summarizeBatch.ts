import * as path from 'node:path';
import type { FailedItem } from '../adapters/redis/catalogStore';
import type { PipelineContext } from './pipelineContext';

export interface BatchSummary {
  batchId: string;
  feed: string;
  format: string;
  state: string;
  items: number;
  ok: number;
  failed: number;
  pending: number;
  photos: number;
  captionOnly: number;
  distinctCaptions: number;
  clusters: number;
  duplicates: number;
  lowConfidenceCredits: number;
  durationMs: number | null;
  createdAt: string;
  finishedAt: string | null;
  records: string;
  renditions: string;
  failures: FailedItem[];
  warnings: string[];
}

/** What a person wants to know about a batch, from the ledger and its records. */
export async function summarizeBatch(ctx: PipelineContext, batchId: string): Promise<BatchSummary | null> {
  const ledger = await ctx.catalog.getBatch(batchId);
  if (!ledger) return null;
  const records = await ctx.catalog.getRecords(batchId);
  const failures = await ctx.catalog.getFailed(batchId);
  const okRecords = records.filter((r) => !r.error);
  const clusters = new Set(okRecords.map((r) => r.cluster?.id).filter((c): c is string => !!c));
  const captions = new Set(okRecords.map((r) => r.caption).filter((c) => c.trim() !== ''));
  return {
    batchId,
    feed: ledger.feed,
    format: ledger.format,
    state: ledger.state,
    items: ledger.expected,
    ok: ledger.ok,
    failed: ledger.failed,
    pending: Math.max(0, ledger.expected - ledger.ok - ledger.failed),
    photos: okRecords.filter((r) => r.image).length,
    captionOnly: okRecords.filter((r) => !r.image).length,
    distinctCaptions: captions.size,
    clusters: clusters.size,
    duplicates: okRecords.filter((r) => r.cluster && r.cluster.canonicalId !== r.id).length,
    lowConfidenceCredits: okRecords.filter((r) => r.credit.confidence === 'low').length,
    durationMs: ledger.finishedAt ? Date.parse(ledger.finishedAt) - Date.parse(ledger.createdAt) : null,
    createdAt: ledger.createdAt,
    finishedAt: ledger.finishedAt,
    records: path.join(ctx.data.root, ctx.data.batchDir(batchId), 'records.ndjson'),
    renditions: path.join(ctx.data.root, 'renditions'),
    failures,
    warnings: ledger.warnings,
  };
}
