import type { Runtime } from '../app/runtime';
import { escapeTerminal } from '../core/terminalText';
import { Progress } from './progress';

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
  const progress = new Progress(batchIds.length === 1 ? escapeTerminal(batchIds[0]) : `${batchIds.length} batches`, process.stderr, opts.progress);
  try {
    await rt.ingest.wait(batchIds, {
      timeoutMs: opts.timeoutMs,
      recreate: opts.recreate,
      onProgress: (p) => progress.update(p.done, p.total, p.failed),
      ...(opts.lostMs !== undefined ? { lostMs: opts.lostMs } : {}),
    });
  } finally {
    progress.end();
  }
}
