import * as path from 'node:path';
import type { BatchSummary } from '../workers/summarizeBatch';
import type { IngestOutcome } from './ingestPaths';
import { plural } from './plural';

const rel = (p: string) => {
  const r = path.relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
};

/** The human summary of a batch, as `run`, `ingest --wait` and `status` print it. */
export function formatSummary(s: BatchSummary): string {
  const lines = [
    `batch ${s.batchId}  (${s.format}, ${rel(s.feed)})  ${s.state}`,
    `  ${plural(s.items, 'item')}: ${s.ok} ok, ${s.failed} failed${s.pending ? `, ${s.pending} pending` : ''}` +
      ` · ${plural(s.photos, 'photo')}, ${s.captionOnly} caption-only` +
      ` · ${plural(s.distinctCaptions, 'distinct caption')} in ${plural(s.clusters, 'cluster')} (${plural(s.duplicates, 'near-duplicate')})` +
      ` · ${plural(s.lowConfidenceCredits, 'low-confidence credit')}` +
      (s.durationMs !== null ? ` · ${(s.durationMs / 1000).toFixed(1)} s` : ''),
    `  records:    ${rel(s.records)}`,
    `  renditions: ${rel(s.renditions)}`,
  ];
  for (const w of s.warnings) lines.push(`  warning: ${w}`);
  if (s.failures.length) {
    lines.push(`  failed items:`);
    for (const f of s.failures) lines.push(`    #${f.position + 1} ${f.code}: ${f.message}`);
  }
  return lines.join('\n');
}

export function formatFeedError(o: IngestOutcome): string {
  return `feed ${o.path}: ${o.error!.code}: ${o.error!.message}`;
}
