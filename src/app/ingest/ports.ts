import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadedFeed, LoadOptions } from '../../adapters/feeds/loadFeed';
import type { BatchLedger } from '../../adapters/redis/catalogStore';
import type { RedisMemory } from '../../adapters/redis/outOfMemory';
import type { EnqueueResult } from '../../queues/enqueueFeed';

/**
 * What the ingest service needs from the outside, passed in (src/app/runtime.ts wires the real
 * ones; test/unit/app/ingest/ builds the service with fakes). None of them is BullMQ to the service.
 */

/** Reads a feed from a path (src/adapters/feeds/loadFeed.ts); a feed that cannot be read throws an InputError. */
export interface FeedLoader {
  load(feedPath: string, opts?: LoadOptions): Promise<LoadedFeed>;
}

/** Puts a loaded feed on the queues as one batch (src/queues/enqueueFeed.ts: ledger, then the flow). */
export interface BatchQueue {
  enqueue(feed: LoadedFeed): Promise<EnqueueResult>;
}

/** A batch's ledger, or null when Redis has none (CatalogStore.getBatch). Throws while Redis does not answer. */
export interface LedgerSource {
  getBatch(batchId: string): Promise<BatchLedger | null>;
  /**
   * Is the batch's export (summary.json, written just after the ledger closes) that of this close?
   * Absent: the wait ends with the ledger.
   */
  exportReady?(ledger: BatchLedger): Promise<boolean>;
  /**
   * Redis's memory when it is out of memory and refuses writes (maxmemory with noeviction), else
   * null. Absent: not checked. The workers may be other processes: this is how a wait learns it.
   */
  outOfMemory?(): Promise<RedisMemory | null>;
}

/**
 * A batch's summary (src/app/batches/summarizeBatch.ts), or null when it has no ledger. `sameRun`:
 * the batches taken with it (one `run` or `ingest` of several feeds), whose clusters it joined are
 * not earlier ones.
 */
export interface BatchSummaries<S> {
  summarize(batchId: string, sameRun?: string[]): Promise<S | null>;
}

export interface IngestLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Time, for the waits: a fake clock makes a test of a minute-long outage take no time. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as it is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  async sleep(ms, signal) {
    try {
      await sleep(ms, undefined, { signal });
    } catch (err) {
      signal?.throwIfAborted();
      throw err;
    }
  },
};
