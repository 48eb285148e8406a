import { systemClock, type Clock, type LedgerSource } from './ports';

/** How many workers consume the item and batch queues (src/queues/workerPresence.ts, BullMQ's getWorkersCount). */
export interface WorkerCountSource {
  counts(): Promise<{ item: number; batch: number }>;
}

export type WorkerCheck =
  /** Workers on both queues, or nothing left to process: the wait can go on. */
  | { state: 'ok' }
  /** No worker on a queue the batches need: the queue names, for the message. */
  | { state: 'none'; missing: Array<'item' | 'batch'> };

/** Between checks while waiting for a worker: CLIENT LIST is cheap, a person starts a worker in seconds. */
const WORKER_POLL_MS = 1000;

async function check(workers: WorkerCountSource, ledgers: LedgerSource, batchIds: string[]): Promise<WorkerCheck> {
  const counts = await workers.counts();
  const missing = (['item', 'batch'] as const).filter((q) => counts[q] === 0);
  if (missing.length === 0) return { state: 'ok' };
  // A batch taken before and done (the same feed again) needs no worker.
  const read = await Promise.all(batchIds.map((id) => ledgers.getBatch(id)));
  return read.every((l) => l?.state === 'done') ? { state: 'ok' } : { state: 'none', missing };
}

/**
 * Before `ingest --wait` waits for batches that workers elsewhere process: is any worker there?
 * Without one the wait would show "0% 0/2" for ever. `wait: false` answers at once; `wait: true`
 * re-checks every second until a worker is there (or the batches are done), calling `onWaiting`
 * once first and resolving `ok` when one appears.
 */
export async function awaitWorkers(
  workers: WorkerCountSource,
  ledgers: LedgerSource,
  batchIds: string[],
  opts: { wait: boolean; onWaiting?: (missing: Array<'item' | 'batch'>) => void; clock?: Clock; signal?: AbortSignal },
): Promise<WorkerCheck> {
  const clock = opts.clock ?? systemClock;
  let first = await check(workers, ledgers, batchIds);
  if (first.state === 'ok' || !opts.wait) return first;
  opts.onWaiting?.(first.missing);
  for (;;) {
    await clock.sleep(WORKER_POLL_MS, opts.signal);
    first = await check(workers, ledgers, batchIds);
    if (first.state === 'ok') return first;
  }
}
