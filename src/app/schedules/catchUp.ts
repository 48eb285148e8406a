/**
 * BullMQ keeps one pending job per job scheduler, so a scheduler process that was down for three
 * nights finds one overdue job, runs it once and schedules the next tick from now: missed ticks
 * are caught up once by construction. Upserting a cron scheduler at start, though, replaces that
 * overdue job with the next future tick, which would silently drop the missed run.
 *
 * Given the scheduler's pending tick before the upsert and after it, this says whether a run was
 * dropped and must be added once (its time makes the catch-up job id, so two processes starting
 * together add it once).
 */
export function droppedTick(
  pendingBefore: number | undefined,
  pendingAfter: number | undefined,
  now: number,
): number | null {
  if (pendingBefore === undefined || pendingBefore > now) return null;
  if (pendingAfter !== undefined && pendingAfter <= now) return null; // the upsert kept it due: it runs anyway
  return pendingBefore;
}
