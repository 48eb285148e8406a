import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchLedger, CatalogStore } from '../adapters/redis/catalogStore';

/**
 * How long a wait goes on while a batch's ledger is missing from Redis (Redis restarted without
 * its data, or the keys were deleted) or Redis does not answer at all, before it gives up with
 * the reason: `PHOTOWIRE_LEDGER_LOST_MS`, 60 s by default. A Redis restart with its data (AOF)
 * takes a few seconds (faults.redis.test.ts: 2 s down), well inside it. Read by loadConfig
 * (`config.ledgerLostMs`), which callers pass as `lostMs`.
 */
export const DEFAULT_LEDGER_LOST_MS = 60_000;

/** A wait that gave up: a ledger gone for good, or Redis unreachable, for longer than the bound. Commands exit 2 with its message. */
export class LedgerLostError extends Error {
  readonly code = 'LEDGER_LOST';
  constructor(
    message: string,
    readonly batchIds: string[],
  ) {
    super(message);
    this.name = 'LedgerLostError';
  }
}

/** What a person reads when a ledger is not there: what happened, what to do. */
export function ledgerMissingMessage(batchId: string, lostMs: number, canRecreate: boolean): string {
  return (
    `batch ${batchId} has no ledger in Redis any more (Redis restarted without its data, or its keys were deleted); ` +
    (canRecreate
      ? 're-creating it from the feed'
      : `waiting up to ${Math.round(lostMs / 1000)} s (PHOTOWIRE_LEDGER_LOST_MS) for it to come back; \`photowire ingest <feed> --wait --recreate\` re-creates it from the feed`)
  );
}

export function ledgerGoneMessage(batchId: string, lostMs: number): string {
  return (
    `batch ${batchId}: its ledger has been missing from Redis for ${Math.round(lostMs / 1000)} s (Redis lost its data?); ` +
    `gave up waiting. Items recorded since are kept; \`photowire ingest <feed> --wait --recreate\` re-creates the batch from the feed`
  );
}

/**
 * Per batch, since when its ledger has been missing. `observe` says whether this poll is the first
 * to miss it (tell the user once), and throws LedgerLostError once it has been missing too long.
 */
export class LedgerWatch {
  private readonly missingSince = new Map<string, number>();
  constructor(readonly lostMs: number) {}

  observe(batchId: string, ledger: BatchLedger | null, now = Date.now()): 'present' | 'back' | 'missing-new' | 'missing' {
    if (ledger) return this.missingSince.delete(batchId) ? 'back' : 'present';
    const since = this.missingSince.get(batchId);
    if (since === undefined) {
      this.missingSince.set(batchId, now);
      return 'missing-new';
    }
    if (now - since >= this.lostMs) throw new LedgerLostError(ledgerGoneMessage(batchId, this.lostMs), [batchId]);
    return 'missing';
  }

  forget(batchId: string): void {
    this.missingSince.delete(batchId);
  }
}

export interface WaitLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Poll a batch's ledger until it is done. The item and batch workers may run in another process
 * or on another machine; the ledger is the one place that knows. Aborting (a watcher stopping,
 * a lease lost) rejects with the signal's reason. A ledger that vanished (Redis restarted
 * without its data) is logged at once, re-created with `recreate` when given, and after `lostMs`
 * (PHOTOWIRE_LEDGER_LOST_MS) rejects with LedgerLostError naming it: never a silent wait
 * for ever. Redis not answering is bounded the same way.
 */
export async function waitForBatchDone(
  catalog: CatalogStore,
  batchId: string,
  opts: { signal?: AbortSignal; pollMs?: number; lostMs?: number; logger?: WaitLogger; recreate?: () => Promise<void> } = {},
): Promise<BatchLedger> {
  const pollMs = opts.pollMs ?? 250;
  const watch = new LedgerWatch(opts.lostMs ?? DEFAULT_LEDGER_LOST_MS);
  let downSince: number | null = null;
  for (;;) {
    opts.signal?.throwIfAborted();
    let ledger: BatchLedger | null;
    try {
      ledger = await catalog.getBatch(batchId);
      downSince = null;
    } catch (err) {
      downSince ??= Date.now();
      if (Date.now() - downSince >= watch.lostMs) {
        throw new LedgerLostError(`batch ${batchId}: Redis did not answer for ${Math.round(watch.lostMs / 1000)} s (${(err as Error).message}); gave up waiting`, [batchId]);
      }
      await pause(pollMs, opts.signal);
      continue;
    }
    if (ledger?.state === 'done') return ledger;
    const seen = watch.observe(batchId, ledger);
    if (seen === 'missing-new') {
      opts.logger?.warn({ batchId }, ledgerMissingMessage(batchId, watch.lostMs, !!opts.recreate));
      if (opts.recreate) {
        await opts.recreate();
        watch.forget(batchId);
      }
    } else if (seen === 'back') opts.logger?.info({ batchId }, `batch ${batchId}: its ledger is back`);
    await pause(pollMs, opts.signal);
  }
}

async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    signal?.throwIfAborted();
  }
}
