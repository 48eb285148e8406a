/**
 * One run of a source: a scheduled import firing, or one file taken from a hot folder. `waiting`:
 * a folder in a hot folder held back too long by temp-named files inside it (settle.ts).
 */
export type RunState = 'running' | 'waiting' | 'done' | 'empty' | 'failed';
export type RunTrigger = 'schedule' | 'manual' | 'catch-up' | 'drop';

export interface RunRecord {
  id: string;
  /** The schedule's name; `watch` for files taken from a hot folder. */
  schedule: string;
  source: string;
  trigger: RunTrigger;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  batchId: string | null;
  /** Files (or HTTP feed items) taken by the run. */
  files: number;
  items: number;
  ok: number;
  duplicates: number;
  failed: number;
  state: RunState;
  /** Why a run found nothing, was refused or failed; what was left for later. */
  note: string | null;
  /** An empty row standing for a stretch of consecutive empty runs (foldEmptyRun.ts): how many, and when the last was. */
  checks?: number;
  lastAt?: string;
  /** A run folded into that row: its own record is no longer listed. */
  foldedInto?: string;
}

export const WATCH_SCHEDULE = 'watch';

export function newRun(p: {
  id: string;
  schedule: string;
  source: string;
  trigger: RunTrigger;
  startedAt: Date;
}): RunRecord {
  return {
    id: p.id,
    schedule: p.schedule,
    source: p.source,
    trigger: p.trigger,
    startedAt: p.startedAt.toISOString(),
    finishedAt: null,
    durationMs: null,
    batchId: null,
    files: 0,
    items: 0,
    ok: 0,
    duplicates: 0,
    failed: 0,
    state: 'running',
    note: null,
  };
}

/** Close a run: its duration counts from its start to now. */
export function finishRun(
  run: RunRecord,
  state: Exclude<RunState, 'running' | 'waiting'>,
  at: Date,
  patch: Partial<RunRecord> = {},
): RunRecord {
  return {
    ...run,
    ...patch,
    state,
    finishedAt: at.toISOString(),
    durationMs: Math.max(0, at.getTime() - Date.parse(run.startedAt)),
  };
}
