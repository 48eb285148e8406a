import { systemClock, type Clock } from '../ingest/ports';
import type { RunRecord } from '../../core/runs/runRecord';

/** Poll a run's record until it is no longer running (`schedule run --wait`); null when it has not finished by the deadline. */
export async function waitForRun(
  runs: { get(runId: string): Promise<RunRecord | null> },
  runId: string,
  opts: { timeoutMs: number; pollMs?: number; clock?: Clock },
): Promise<RunRecord | null> {
  const clock = opts.clock ?? systemClock;
  const deadline = clock.now() + opts.timeoutMs;
  for (;;) {
    const run = await runs.get(runId);
    if (run && run.state !== 'running') return run;
    if (clock.now() >= deadline) return null;
    await clock.sleep(opts.pollMs ?? 500);
  }
}
