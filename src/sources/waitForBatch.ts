import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchLedger, CatalogStore } from '../adapters/redis/catalogStore';

/**
 * Poll a batch's ledger until it is done. The item and batch workers may run in another process
 * or on another machine; the ledger is the one place that knows. Aborting (a watcher stopping,
 * a lease lost) rejects with the signal's reason.
 */
export async function waitForBatchDone(catalog: CatalogStore, batchId: string, opts: { signal?: AbortSignal; pollMs?: number } = {}): Promise<BatchLedger> {
  const pollMs = opts.pollMs ?? 250;
  for (;;) {
    opts.signal?.throwIfAborted();
    const ledger = await catalog.getBatch(batchId);
    if (ledger?.state === 'done') return ledger;
    try {
      await sleep(pollMs, undefined, { signal: opts.signal });
    } catch {
      opts.signal?.throwIfAborted();
    }
  }
}
