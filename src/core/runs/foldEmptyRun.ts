import type { RunRecord } from './runRecord';

/**
 * Consecutive empty runs of one schedule are one row: a schedule every minute would otherwise add
 * about 1,440 "nothing new" rows a day to `photowire runs` and the desk's sidebar. The row is the
 * first empty run of the stretch, updated in place by each later one (`checks`, `lastAt`, the
 * latest note); a run that takes something, or fails, ends the stretch and the next empty run
 * starts a new row. The folded run's own record stays readable by its id for a day
 * (`schedule run --wait` reads it), marked `foldedInto`, but is no longer listed.
 */

/** Can `run` fold into `prev`, the schedule's newest other row? Hot-folder runs never fold: each names its own file. */
export function foldsInto(prev: RunRecord | null, run: RunRecord): boolean {
  return (
    prev !== null &&
    run.state === 'empty' &&
    prev.state === 'empty' &&
    prev.schedule === run.schedule &&
    run.schedule !== 'watch' &&
    prev.id !== run.id
  );
}

/** The row after `run` folded into `prev`: the pure twin of src/adapters/redis/lua/foldEmptyRun.lua (test/integration/runs.fold.test.ts keeps them equal). */
export function foldEmptyRun(prev: RunRecord, run: RunRecord): RunRecord {
  return { ...prev, checks: (prev.checks ?? 1) + 1, lastAt: run.startedAt, finishedAt: run.finishedAt, note: run.note };
}

/** How long the record of a folded run stays readable by its id. */
export const FOLDED_TTL_MS = 86_400_000;

/** `no new files since 02:00, 57 checks`: what `photowire runs` and the desk say of a stretch. */
export function stretchLabel(run: Pick<RunRecord, 'startedAt' | 'checks'>, clock: (iso: string) => string): string {
  const checks = run.checks ?? 1;
  return `no new files since ${clock(run.startedAt)}, ${checks} ${checks === 1 ? 'check' : 'checks'}`;
}
