import type { BatchLedger } from '../../adapters/redis/catalogStore';
import { PhotowireError } from '../../core/errors';
import { outOfMemoryError } from '../../adapters/redis/outOfMemory';
import { systemClock, type Clock, type IngestLogger, type LedgerSource } from './ports';

/**
 * How long a wait goes on while a batch's ledger is missing from Redis (Redis restarted without
 * its data, or the keys were deleted) or Redis does not answer at all, before it gives up with
 * the reason: `PHOTOWIRE_LEDGER_LOST_MS`, 60 s by default. A Redis restart with its data (AOF)
 * takes a few seconds (faults.redis.test.ts: 2 s down), well inside it. Read by loadConfig
 * (`config.ledgerLostMs`), which callers pass as `lostMs`.
 */
export const DEFAULT_LEDGER_LOST_MS = 60_000;

/** A wait that gave up: a ledger gone for good, or Redis unreachable, for longer than the bound. Commands exit 2 with its message. */
export class LedgerLostError extends PhotowireError {
  constructor(
    message: string,
    readonly batchIds: string[],
  ) {
    super('LEDGER_LOST', message);
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

  observe(
    batchId: string,
    ledger: BatchLedger | null,
    now = Date.now(),
  ): 'present' | 'back' | 'missing-new' | 'missing' {
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

export interface WaitProgress {
  /** Items recorded (ok + failed) over every batch waited for. */
  done: number;
  total: number;
  failed: number;
}

export interface WaitOptions {
  /** How long a missing ledger or a silent Redis is waited for (config.ledgerLostMs, PHOTOWIRE_LEDGER_LOST_MS). */
  lostMs?: number;
  /** Give up (a plain Error) after this long; none by default. */
  timeoutMs?: number;
  /** Stops the wait at once, rejecting with the signal's reason (a watcher stopping, a lease lost). */
  signal?: AbortSignal;
  /** Between polls of the ledgers (default 150 ms) and while Redis does not answer (default 500 ms). */
  pollMs?: number;
  downPollMs?: number;
  /** Re-create a batch whose ledger vanished (`ingest --wait --recreate`); what it returns is logged for the user. */
  recreate?: (batchId: string) => Promise<string | void>;
  /**
   * Give up with REDIS_OUT_OF_MEMORY when Redis refuses writes for want of memory (the commands:
   * `run`, `ingest --wait`, `retry --wait`). Off for hot folders and schedules, which wait through it.
   */
  stopOnOutOfMemory?: boolean;
  /** Called after every poll that read the ledgers. */
  onProgress?: (p: WaitProgress) => void;
  logger?: IngestLogger;
  clock?: Clock;
}

/**
 * Poll the ledgers until every batch is done; returns them, in the order given. The item and batch
 * workers may run in another process or on another machine: the ledger is the one place that
 * knows. The one wait of every entry point (`run`, `ingest --wait`, `retry --wait`, the watcher,
 * the scheduler):
 * - Redis not answering (a restart) is waited through, with a warning, for up to `lostMs`, then
 *   LedgerLostError says so; the workers reconnect on their own.
 * - A ledger that vanished (Redis restarted without its data) is said at once; it is re-created
 *   with `recreate` when given, else LedgerLostError names it after `lostMs`: never a silent wait
 *   for ever.
 * - Aborting the signal rejects at once with its reason, also in the middle of a pause.
 */
/** How long a closed batch's summary.json is waited for (it follows the close by milliseconds). */
const EXPORT_WAIT_MS = 15_000;
/**
 * Redis's memory is read once a second (INFO memory, well under a millisecond), and a wait gives
 * up with REDIS_OUT_OF_MEMORY once two readings that far apart both say writes are refused: with
 * noeviction nothing frees memory by itself, and a moment over the line (a large reply's buffer)
 * is not taken for it.
 */
const OOM_CHECK_MS = 1000;

export async function waitForBatches(
  ledgers: LedgerSource,
  batchIds: string[],
  opts: WaitOptions = {},
): Promise<BatchLedger[]> {
  if (batchIds.length === 0) return [];
  const clock = opts.clock ?? systemClock;
  const pollMs = opts.pollMs ?? 150;
  const downPollMs = opts.downPollMs ?? 500;
  const deadline = opts.timeoutMs ? clock.now() + opts.timeoutMs : Infinity;
  const watch = new LedgerWatch(opts.lostMs ?? DEFAULT_LEDGER_LOST_MS);
  const what = batchIds.join(', ');
  let downSince: number | null = null;
  let exportSince: number | null = null;
  let oomCheckedAt = -Infinity;
  let oomSince: number | null = null;
  for (;;) {
    opts.signal?.throwIfAborted();
    if (opts.stopOnOutOfMemory && ledgers.outOfMemory && clock.now() - oomCheckedAt >= OOM_CHECK_MS) {
      oomCheckedAt = clock.now();
      const memory = await ledgers.outOfMemory().catch(() => null);
      if (!memory) oomSince = null;
      else if (oomSince === null) oomSince = oomCheckedAt;
      else if (oomCheckedAt - oomSince >= OOM_CHECK_MS) throw outOfMemoryError('Redis', memory, batchIds);
    }
    let read: Array<BatchLedger | null>;
    try {
      read = await Promise.all(batchIds.map((id) => ledgers.getBatch(id)));
      downSince = null;
    } catch (err) {
      opts.signal?.throwIfAborted();
      const now = clock.now();
      downSince ??= now;
      if (now > deadline) throw err;
      if (now - downSince >= watch.lostMs) {
        throw new LedgerLostError(
          `Redis did not answer for ${Math.round(watch.lostMs / 1000)} s while waiting for ${what} (${(err as Error).message}); gave up waiting (PHOTOWIRE_LEDGER_LOST_MS)`,
          batchIds,
        );
      }
      opts.logger?.warn({ batchIds, err: (err as Error).message }, 'lost Redis while waiting; retrying');
      await clock.sleep(downPollMs, opts.signal);
      continue;
    }
    for (const [i, id] of batchIds.entries()) {
      const seen = watch.observe(id, read[i], clock.now());
      if (seen === 'missing-new') {
        opts.logger?.warn({ batchId: id }, ledgerMissingMessage(id, watch.lostMs, !!opts.recreate));
        if (opts.recreate) {
          const said = await opts.recreate(id);
          if (said) opts.logger?.warn({ batchId: id }, said);
          watch.forget(id);
        }
      } else if (seen === 'back') {
        opts.logger?.warn({ batchId: id }, `batch ${id}: its ledger is back`);
      }
    }
    opts.onProgress?.({
      total: read.reduce((n, l) => n + (l?.expected ?? 0), 0),
      failed: read.reduce((n, l) => n + (l?.failed ?? 0), 0),
      done: read.reduce((n, l) => n + (l ? l.ok + l.failed : 0), 0),
    });
    if (read.every((l) => l?.state === 'done')) {
      // The ledger closes a moment before summary.json is written (finalizeBatch): a caller that
      // reads the export next waits for it too, for a bounded time (an export that failed says so
      // in the ledger's exportError and is not waited for).
      const done = read as BatchLedger[];
      if (!ledgers.exportReady) return done;
      exportSince ??= clock.now();
      const pending = await Promise.all(
        done.map((l) => (l.exportError ? true : ledgers.exportReady!(l).catch(() => false))),
      );
      if (pending.every(Boolean) || clock.now() - exportSince >= EXPORT_WAIT_MS) return done;
      await clock.sleep(pollMs, opts.signal);
      continue;
    }
    exportSince = null;
    if (clock.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await clock.sleep(pollMs, opts.signal);
  }
}
