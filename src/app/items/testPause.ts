import { setTimeout as sleep } from 'node:timers/promises';
import type { ContextServices } from '../pipelineContext';

export type PausePoint = 'render' | 'dedup' | 'chunk';

/**
 * Test-only. With PHOTOWIRE_TEST_PAUSE_AT=<point>[:<ms>] every item waits at that point (10 minutes
 * without :ms) after logging "test pause", so a fault test can kill -9 or signal a worker exactly
 * inside a window that is otherwise a few milliseconds wide:
 * - `render`: the renditions are written and renditions.json is in data/tmp, not yet renamed;
 * - `dedup`: the caption is in its cluster, the record and ledger are not yet written.
 * Unset (always, outside tests) it costs one comparison.
 */
export async function testPause(ctx: ContextServices, point: PausePoint, itemId: string): Promise<void> {
  const at = ctx.config.testPauseAt;
  if (!at) return;
  const [name, ms] = at.split(':');
  if (name !== point) return;
  ctx.logger.warn({ testPause: point, itemId }, 'test pause');
  await sleep(ms ? Number(ms) : 600_000);
}
