import type { Runtime } from '../app/runtime';
import { escapeTerminal } from '../core/terminalText';
import { Progress } from './progress';
import { describeRedis } from '../adapters/redis/ensureRedis';
import { outOfMemoryError } from '../adapters/redis/outOfMemory';

export interface WaitOptions {
  progress: boolean;
  timeoutMs?: number;
  /** config.ledgerLostMs (PHOTOWIRE_LEDGER_LOST_MS) unless given: how long a missing ledger or a silent Redis is waited for. */
  lostMs?: number;
  /** Re-create a batch whose ledger vanished (`ingest --wait --recreate`); returns what it did, for the user. */
  recreate?: (batchId: string) => Promise<string>;
}

/**
 * The commands' wait: the one wait loop (src/app/ingest/waitForBatches.ts) with one progress line
 * for all the batches on stderr. Gives up with LedgerLostError (exit 2 with its message).
 */
export async function waitForBatches(rt: Runtime, batchIds: string[], opts: WaitOptions): Promise<void> {
  if (batchIds.length === 0) return;
  const progress = new Progress(
    batchIds.length === 1 ? escapeTerminal(batchIds[0]) : `${batchIds.length} batches`,
    process.stderr,
    opts.progress,
  );
  // Redis out of memory: this process's workers say so at their first refused write (the wait
  // stops at once, one line, REDIS_OUT_OF_MEMORY); workers elsewhere are noticed by the wait's
  // own reading of Redis's memory.
  const stop = new AbortController();
  const unsubscribe = rt.onRedisOutOfMemory(() => {
    if (stop.signal.aborted) return;
    void rt.redisMemory().then((m) => stop.abort(outOfMemoryError(describeRedis(rt.redisHandle), m, batchIds)));
  });
  try {
    await rt.ingest.wait(batchIds, {
      timeoutMs: opts.timeoutMs,
      recreate: opts.recreate,
      signal: stop.signal,
      stopOnOutOfMemory: true,
      onProgress: (p) => progress.update(p.done, p.total, p.failed),
      ...(opts.lostMs !== undefined ? { lostMs: opts.lostMs } : {}),
    });
  } finally {
    unsubscribe();
    progress.end();
  }
}
