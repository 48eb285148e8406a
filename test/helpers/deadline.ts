import * as os from 'node:os';

/**
 * Deadlines for waits on events that legitimately take longer on a busy machine (a render, a
 * process starting, a watcher's scan): the time such an event takes on an idle box, scaled by how
 * loaded this one is now. The suite must pass on a shared 2-core box; a fixed 20 s wait for a
 * drop to reach processed/ timed out at load ~2 (alone it took 12 s).
 *
 * The factor is the 1-minute load average per CPU (1 when idle or lightly loaded), capped so a
 * test that really hangs still fails within a bounded time. PHOTOWIRE_TEST_SLOWDOWN (a number)
 * sets a floor, for a machine known to be slow (a CI runner under emulation).
 */
export const MAX_LOAD_FACTOR = 8;

export function loadFactor(): number {
  const cpus = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  const measured = os.loadavg()[0] / cpus;
  const floor = Number(process.env.PHOTOWIRE_TEST_SLOWDOWN) || 1;
  return Math.min(MAX_LOAD_FACTOR, Math.max(1, floor, measured));
}

/** `baseMs` (what the wait takes on an idle machine, with margin) scaled by the load measured now. */
export function scaledMs(baseMs: number): number {
  return Math.round(baseMs * loadFactor());
}
