import * as path from 'node:path';
import type { IngestOutcome } from '../app/ingest/ingestService';
import type { BatchSummary } from '../app/runtime';
import { printable } from '../core/terminalText';
import { plural } from './plural';

const rel = (p: string) => {
  const r = path.relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
};

/** A time as the summary prints it: "0.1 s", "42.0 s", "5 min 42 s", "2 h 05 min". */
// Hand-written, not ms(): two units with padded seconds (`5 min 42 s`); ms() rounds to one (`6m`).
export function formatSeconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/**
 * Whether the elapsed time (created -> last finished) says something the processing time does
 * not: a retry long after the batch ended (0.1 s of work, finished 5 min 42 s after it arrived).
 * At least 2 s and half as much again as the processing time.
 */
export function elapsedDiffers(processingMs: number, elapsedMs: number): boolean {
  return elapsedMs - processingMs >= 2000 && elapsedMs >= 1.5 * processingMs;
}

/** "took 0.1 s", or "took 0.1 s, finished 5 min 42 s after it arrived" when the two differ much. */
export function formatTook(processingMs: number, elapsedMs: number | null): string {
  const took = `took ${formatSeconds(processingMs)}`;
  return elapsedMs !== null && elapsedDiffers(processingMs, elapsedMs)
    ? `${took}, finished ${formatSeconds(elapsedMs)} after it arrived`
    : took;
}

/** "1 text item, 1 video item, 2 files": the feed's items that are not pictures, by kind, and a folder's files that are neither picture nor feed (`file`). */
export function formatSkipped(skipped: Record<string, number>): string {
  return Object.entries(skipped)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => printable`${plural(n, kind === 'file' ? 'file' : `${kind} item`)}`)
    .join(', ');
}

/**
 * What the batch's clusters repeat, as the cards say it: "1 identical duplicate" (the card:
 * "identical captions"), "2 near-duplicates", "3 joined earlier clusters", and for feeds of one run
 * "3 joined clusters of other feeds in this run" (they are the same night's, not earlier).
 * A summary.json of a version before `identical` counts every duplicate as near.
 */
export function formatRepeats(
  s: Pick<BatchSummary, 'duplicates' | 'joinedEarlier'> & Partial<Pick<BatchSummary, 'identical' | 'joinedThisRun'>>,
): string {
  const identical = Math.min(s.identical ?? 0, s.duplicates);
  const near = s.duplicates - identical;
  const parts = [
    identical ? plural(identical, 'identical duplicate') : null,
    near || !identical ? plural(near, 'near-duplicate') : null,
    s.joinedEarlier ? plural(s.joinedEarlier, 'joined earlier cluster') : null,
    s.joinedThisRun
      ? plural(
          s.joinedThisRun,
          'joined a cluster of another feed in this run',
          'joined clusters of other feeds in this run',
        )
      : null,
  ];
  return parts.filter((p): p is string => p !== null).join(', ');
}

/** The human summary of a batch, as `run`, `ingest --wait` and `status` print it. */
export function formatSummary(s: BatchSummary): string {
  // Summaries written before these fields existed (summary.json of an older version) read as before.
  const processingMs = s.processingMs ?? s.durationMs ?? null;
  const elapsedMs = s.elapsedMs ?? s.durationMs ?? null;
  const repeats = formatRepeats(s);
  const skipped = formatSkipped(s.skipped ?? {});
  // Every value is escaped (printable): a feed's file name or an item's error message may hold a
  // newline or a terminal escape, and must not start a line or move the cursor.
  const lines = [
    printable`batch ${s.batchId}  (${s.format}, ${rel(s.feed)})  ${s.state}`,
    `  ${plural(s.items, 'item')}: ${s.ok} ok, ${s.failed} failed${s.pending ? `, ${s.pending} pending` : ''}` +
      ` · ${plural(s.photos, 'photo')}, ${s.captionOnly} caption-only` +
      ` · ${plural(s.distinctCaptions, 'distinct caption')} in ${plural(s.clusters, 'cluster')} (${repeats})` +
      ` · ${plural(s.lowConfidenceCredits, 'low-confidence credit')}` +
      (processingMs !== null ? ` · ${formatTook(processingMs, elapsedMs)}` : ''),
    ...(skipped ? [`  skipped: ${skipped} (not pictures)`] : []),
    printable`  records:    ${rel(s.records)}`,
    printable`  renditions: ${rel(s.renditions)}`,
  ];
  for (const w of s.warnings) lines.push(printable`  warning: ${w}`);
  if (s.failures.length) {
    lines.push(`  failed items:`);
    for (const f of s.failures) lines.push(printable`    #${f.position + 1} ${f.code}: ${f.message}`);
  }
  return lines.join('\n');
}

export function formatFeedError(o: IngestOutcome): string {
  return printable`feed ${o.path}: ${o.error!.code}: ${o.error!.message}`;
}
