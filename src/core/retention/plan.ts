/**
 * Retention: Redis holds the working set, storage holds the archive. Pure decisions of
 * one retention pass; src/app/retention/retentionPass.ts does the I/O over ports.
 *
 * A batch leaves Redis when it finished (state `done`) more than `retentionDays` ago and its export
 * (records.ndjson and summary.json) is in storage. A batch still open, or finished within the
 * window, is untouched; a batch whose export is missing is kept (and said so), never lost.
 */

export const DAY_MS = 24 * 3600 * 1000;

/** What a pass knows of one batch before deciding. */
export interface BatchFacts {
  id: string;
  /** The ledger's state, or null when the ledger is gone (a pass killed after removing it). */
  state: 'queued' | 'running' | 'done' | null;
  /** ISO time the batch finished, null when it never did. */
  finishedAt: string | null;
  /** Is the batch already in the archived index (a pass began removing it)? */
  archived: boolean;
}

export type BatchDecision =
  /** Finished before the cutoff: check its export, then remove it from Redis. */
  | { id: string; action: 'remove' }
  /** A pass was killed while removing it (ledger gone, archived): finish the removal. */
  | { id: string; action: 'resume' }
  | { id: string; action: 'keep'; reason: 'recent' | 'open' | 'no-ledger' };

/** The time before which a finished batch leaves Redis. */
export function retentionCutoff(now: Date, retentionDays: number): number {
  if (!(retentionDays > 0)) throw new RangeError(`retention days must be positive: ${retentionDays}`);
  return now.getTime() - retentionDays * DAY_MS;
}

/** When a batch finished at `finishedAt` leaves Redis (its failed items with it): ISO, or null for a batch not finished. */
export function expiresAt(finishedAt: string | null, retentionDays: number): string | null {
  if (!finishedAt) return null;
  const t = Date.parse(finishedAt);
  if (Number.isNaN(t)) return null;
  return new Date(t + retentionDays * DAY_MS).toISOString();
}

/** Decide one batch. */
export function decideBatch(b: BatchFacts, cutoffMs: number): BatchDecision {
  if (b.state === null)
    return b.archived ? { id: b.id, action: 'resume' } : { id: b.id, action: 'keep', reason: 'no-ledger' };
  if (b.state !== 'done' || !b.finishedAt) return { id: b.id, action: 'keep', reason: 'open' };
  const t = Date.parse(b.finishedAt);
  if (Number.isNaN(t) || t >= cutoffMs) return { id: b.id, action: 'keep', reason: 'recent' };
  return { id: b.id, action: 'remove' };
}

/**
 * The steps removing one batch, in order. The ledger goes first after the archived entry exists,
 * so a reader switches to the archive at once and a pass killed at any later step finds the batch
 * `resume`-able (no ledger, archived); each step is idempotent.
 */
export const REMOVAL_STEPS = ['archive-entry', 'ledger', 'jobs', 'keys', 'list'] as const;
export type RemovalStep = (typeof REMOVAL_STEPS)[number];

/** The steps still to do after `done` (the cursor's last finished step; null: none done). */
export function stepsAfter(done: RemovalStep | null): RemovalStep[] {
  if (done === null) return [...REMOVAL_STEPS];
  const i = REMOVAL_STEPS.indexOf(done);
  if (i < 0) return [...REMOVAL_STEPS];
  return REMOVAL_STEPS.slice(i + 1);
}

/** The counts a pass reports (and logs). */
export interface RetentionReport {
  dryRun: boolean;
  now: string;
  cutoff: string;
  /** Batches removed from Redis (or that would be, with dryRun). */
  removed: string[];
  /** Batches whose removal a killed pass had begun, finished now. */
  resumed: string[];
  /** Batches past the window kept because their export is missing in storage. */
  keptNoExport: Array<{ id: string; missing: string[] }>;
  /** Batches looked at and left (recent or still open). */
  kept: number;
  /** Redis keys unlinked, BullMQ jobs removed, run rows removed. */
  keysRemoved: number;
  jobsRemoved: number;
  runsRemoved: number;
  /** Failed items that expired with their batch (their entries, jobs and retry claims left Redis; the export keeps their records). */
  failedExpired: number;
  /** True when the pass stopped at its step limit (the next pass goes on from the cursor). */
  stoppedEarly: boolean;
}

export function emptyReport(now: Date, cutoffMs: number, dryRun: boolean): RetentionReport {
  return {
    dryRun,
    now: now.toISOString(),
    cutoff: new Date(cutoffMs).toISOString(),
    removed: [],
    resumed: [],
    keptNoExport: [],
    kept: 0,
    keysRemoved: 0,
    jobsRemoved: 0,
    runsRemoved: 0,
    failedExpired: 0,
    stoppedEarly: false,
  };
}

/** A run row leaves Redis when it started before the cutoff and is over (not running or waiting). */
export function runExpired(run: { startedAt: string; state: string }, cutoffMs: number): boolean {
  if (run.state === 'running' || run.state === 'waiting') return false;
  const t = Date.parse(run.startedAt);
  return !Number.isNaN(t) && t < cutoffMs;
}

/** The text `photowire retention` prints. */
export function formatReport(r: RetentionReport): string {
  const verb = r.dryRun ? 'would remove' : 'removed';
  const lines = [
    `retention (cutoff ${r.cutoff}${r.dryRun ? ', dry run' : ''}): ${verb} ${r.removed.length} batch(es) from Redis, kept ${r.kept}`,
  ];
  for (const id of r.removed) lines.push(`  ${verb} ${id} (its export stays in storage)`);
  for (const id of r.resumed) lines.push(`  finished removing ${id} (a pass had begun it)`);
  for (const k of r.keptNoExport)
    lines.push(`  kept ${k.id}: its export is missing in storage (${k.missing.join(', ')})`);
  if (!r.dryRun)
    lines.push(
      `  keys unlinked ${r.keysRemoved}, jobs removed ${r.jobsRemoved}, run rows removed ${r.runsRemoved}, failed items expired ${r.failedExpired}`,
    );
  else
    lines.push(`  run rows that would be removed ${r.runsRemoved}, failed items that would expire ${r.failedExpired}`);
  if (r.stoppedEarly) lines.push('  stopped at the step limit: the next pass goes on');
  return lines.join('\n');
}

/** The small summary an archived batch is listed with (the `archived` index). */
export interface ArchivedEntry {
  id: string;
  feed: string;
  format: string;
  createdAt: string;
  finishedAt: string | null;
  expected: number;
  ok: number;
  failed: number;
  archivedAt: string;
}

/** Where a pass is: the batch being removed and its last finished step. */
export interface RetentionCursor {
  batchId: string;
  step: RemovalStep | null;
}
