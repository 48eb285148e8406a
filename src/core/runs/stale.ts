/**
 * "Gone strangely quiet": a source that has brought nothing new for longer than
 * PHOTOWIRE_STALE_HOURS, or a hot folder no watcher has looked at for that long, is reported by
 * `photowire runs` and logged by the process watching it.
 */

export interface SourceStatus {
  kind: 'schedule' | 'watch';
  /** Schedule name, or the hot folder's path. */
  name: string;
  source: string;
  /** When photowire started watching or scheduling it (ms). */
  since: number;
  /** Last time a run or scan brought something new (ms). */
  lastNewAt: number | null;
  /** Last time a run or scan looked at it (ms). */
  lastCheckAt: number | null;
}

export interface Staleness {
  stale: boolean;
  /** Hours since something new came in (or since watching began). */
  silentHours: number;
  reason: string | null;
}

const hours = (ms: number) => Math.round((ms / 3_600_000) * 10) / 10;

export function staleness(s: SourceStatus, now: number, staleHours: number): Staleness {
  const limit = staleHours * 3_600_000;
  const silentMs = now - (s.lastNewAt ?? s.since);
  const silentHours = hours(silentMs);
  const what = s.kind === 'watch' ? 'hot folder' : 'schedule';
  // A watcher looks every few seconds; a schedule may rightly look once a night (see `overdueBy` for it).
  if (s.kind === 'watch' && (s.lastCheckAt === null ? now - s.since > limit : now - s.lastCheckAt > limit)) {
    const last = s.lastCheckAt === null ? 'never' : `last on ${new Date(s.lastCheckAt).toISOString()}`;
    return {
      stale: true,
      silentHours,
      reason: `${what} not checked for over ${staleHours} h (${last}; is photowire watch running?)`,
    };
  }
  if (silentMs > limit) {
    const last = s.lastNewAt === null ? 'nothing taken yet' : `last new on ${new Date(s.lastNewAt).toISOString()}`;
    return {
      stale: true,
      silentHours,
      reason: `nothing new for ${silentHours} h (${last}; PHOTOWIRE_STALE_HOURS=${staleHours})`,
    };
  }
  return { stale: false, silentHours, reason: null };
}

/**
 * How late a schedule's next run may be before `photowire runs` says OVERDUE: a busy scheduler, a
 * long run before it, or a restart delay a run by a minute or two without anything being wrong.
 * docs/SOURCES.md "Scheduled imports".
 */
export const OVERDUE_GRACE_MS = 5 * 60_000;

/**
 * A schedule whose next run is due for longer than `graceMs`: no scheduler process is running
 * (BullMQ keeps the overdue run and a starting scheduler runs it once). Null when on time.
 */
export function overdueBy(next: number | null, now: number, graceMs = OVERDUE_GRACE_MS): number | null {
  if (next === null || now - next <= graceMs) return null;
  return now - next;
}
