import { Progress } from './progress';
import type { Runtime } from './runtime';

/** Poll the ledgers until every batch is done, showing one progress line for all of them. */
export async function waitForBatches(rt: Runtime, batchIds: string[], opts: { progress: boolean; timeoutMs?: number }): Promise<void> {
  if (batchIds.length === 0) return;
  const progress = new Progress(batchIds.length === 1 ? batchIds[0] : `${batchIds.length} batches`, process.stderr, opts.progress);
  const deadline = opts.timeoutMs ? Date.now() + opts.timeoutMs : Infinity;
  for (;;) {
    let ledgers;
    try {
      ledgers = await Promise.all(batchIds.map((id) => rt.ctx.catalog.getBatch(id)));
    } catch (err) {
      // Redis restarting is not the batch failing: the workers reconnect, so keep waiting until the deadline.
      if (Date.now() > deadline) throw err;
      rt.logger.warn({ err: (err as Error).message }, 'lost Redis while waiting; retrying');
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    const total = ledgers.reduce((n, l) => n + (l?.expected ?? 0), 0);
    const failed = ledgers.reduce((n, l) => n + (l?.failed ?? 0), 0);
    const done = ledgers.reduce((n, l) => n + (l ? l.ok + l.failed : 0), 0);
    progress.update(done, total, failed);
    if (ledgers.every((l) => l?.state === 'done')) break;
    if (Date.now() > deadline) {
      progress.end();
      throw new Error(`timed out waiting for ${batchIds.join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  progress.end();
}
