import { LedgerLostError, LedgerWatch, ledgerMissingMessage } from '../sources/waitForBatch';
import { Progress } from './progress';
import type { Runtime } from '../app/runtime';

export interface WaitOptions {
  progress: boolean;
  timeoutMs?: number;
  /** config.ledgerLostMs (PHOTOWIRE_LEDGER_LOST_MS) unless given: how long a missing ledger or a silent Redis is waited for. */
  lostMs?: number;
  /** Re-create a batch whose ledger vanished (`ingest --wait --recreate`); returns what it did, for the user. */
  recreate?: (batchId: string) => Promise<string>;
}

/**
 * Poll the ledgers until every batch is done, showing one progress line for all of them. A
 * ledger that vanished (Redis restarted without its data) is said at once on stderr; it is
 * re-created with `recreate`, else the wait gives up after `lostMs` with LedgerLostError (the
 * commands exit 2 with its message). Redis not answering is waited through for as long.
 */
export async function waitForBatches(rt: Runtime, batchIds: string[], opts: WaitOptions): Promise<void> {
  if (batchIds.length === 0) return;
  const progress = new Progress(batchIds.length === 1 ? batchIds[0] : `${batchIds.length} batches`, process.stderr, opts.progress);
  const deadline = opts.timeoutMs ? Date.now() + opts.timeoutMs : Infinity;
  const watch = new LedgerWatch(opts.lostMs ?? rt.config.ledgerLostMs);
  let downSince: number | null = null;
  try {
    for (;;) {
      let ledgers;
      try {
        ledgers = await Promise.all(batchIds.map((id) => rt.ctx.catalog.getBatch(id)));
        downSince = null;
      } catch (err) {
        // Redis restarting is not the batch failing: the workers reconnect, so keep waiting, for a bounded time.
        downSince ??= Date.now();
        if (Date.now() > deadline) throw err;
        if (Date.now() - downSince >= watch.lostMs) {
          throw new LedgerLostError(`Redis did not answer for ${Math.round(watch.lostMs / 1000)} s while waiting for ${batchIds.join(', ')} (${(err as Error).message}); gave up waiting (PHOTOWIRE_LEDGER_LOST_MS)`, batchIds);
        }
        rt.logger.warn({ err: (err as Error).message }, 'lost Redis while waiting; retrying');
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      for (const [i, id] of batchIds.entries()) {
        const seen = watch.observe(id, ledgers[i]);
        if (seen === 'missing-new') {
          rt.logger.warn({ batchId: id }, ledgerMissingMessage(id, watch.lostMs, !!opts.recreate));
          if (opts.recreate) {
            const what = await opts.recreate(id);
            rt.logger.warn({ batchId: id }, what);
            watch.forget(id);
          }
        } else if (seen === 'back') {
          rt.logger.warn({ batchId: id }, `batch ${id}: its ledger is back`);
        }
      }
      const total = ledgers.reduce((n, l) => n + (l?.expected ?? 0), 0);
      const failed = ledgers.reduce((n, l) => n + (l?.failed ?? 0), 0);
      const done = ledgers.reduce((n, l) => n + (l ? l.ok + l.failed : 0), 0);
      progress.update(done, total, failed);
      if (ledgers.every((l) => l?.state === 'done')) break;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${batchIds.join(', ')}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  } finally {
    progress.end();
  }
}
