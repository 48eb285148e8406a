import type { LoadedFeed, LoadOptions } from '../../adapters/feeds/loadFeed';
import type { EnqueueResult } from '../../queues/enqueueFeed';
import type { IngestLogger } from '../ingest/ports';
import type { RunRecord } from '../../core/runs/runRecord';
import type { SourceStatus } from '../../core/runs/stale';
import type { Outcome } from './destination';
import type { EntryObservation, ScanListing } from './settle';

/**
 * What the hot-folder service (hotFolderService.ts) needs from the outside, passed in.
 * src/app/hotFolder/hotFolderPorts.ts wires the real ones (node:fs, a lease in Redis, the run log,
 * the runtime's ingest service); test/unit/app/hotFolder/ builds the service with fakes.
 */

/** The hot folders on disk (node:fs in production: scanFolder.ts, moveTaken.ts, src/adapters/feeds/loadFeed.ts). */
export interface HotFolderFiles {
  /** What is at `dir`: a folder to watch, nothing, or something else. */
  kindOf(dir: string): Promise<'folder' | 'missing' | 'other'>;
  /** One scan of a hot folder's top level (scanHotFolder). */
  scan(dir: string, signal?: AbortSignal): Promise<ScanListing>;
  /** One entry again, null when it is gone (observeEntry). */
  observe(dir: string, name: string, signal?: AbortSignal): Promise<EntryObservation | null>;
  /** What a symlink points to; null when it cannot be read. */
  readLink(file: string): Promise<string | null>;
  /** What a special entry is, for the message: `a FIFO`, `a socket`, `a device`. */
  specialKind(file: string): Promise<string>;
  realPath(p: string): Promise<string>;
  /** A folder dropped into a hot folder, read as one feed (loadFeed: the same folder feed as `run`). */
  loadFolder(dir: string, opts: LoadOptions): Promise<LoadedFeed>;
  /** Move an entry to processed/<day>/ or failed/<day>/ (with `.error.json` when `error`); the new path. */
  move(
    dir: string,
    name: string,
    outcome: Outcome,
    at: Date,
    error?: { code: string; message: string },
  ): Promise<string>;
  exists(p: string): Promise<boolean>;
  /** Call `onChange` when the folder changes (fs.watch); null where that is not supported (polling alone then). */
  watch(dir: string, onChange: () => void): { close(): void } | null;
}

/** The ingest service (src/app/ingest/ingestService.ts): read a feed, and take one from enqueue to summary. */
export interface HotFolderIngest {
  load(feedPath: string, opts?: LoadOptions): Promise<LoadedFeed>;
  take(
    feed: LoadedFeed,
    opts: { signal?: AbortSignal; logger?: IngestLogger; onEnqueued?: (r: EnqueueResult) => Promise<void> },
  ): Promise<{ summary: { ok: number; failed: number; duplicates: number } | null }>;
}

/** One watcher's hold on one dropped entry (src/app/leases/lease.ts in production). */
export interface Claim {
  readonly isLost: boolean;
  /** Renew in the background; `onLost` runs once if the claim could not be renewed. */
  keepAlive(onLost: () => void): void;
  release(): Promise<unknown>;
  /** Leave the claim to expire. */
  stopRenewing(): void;
}

/** Claims shared by every watcher of the same folders, so that two never take the same file. */
export interface HotFolderClaims {
  /** The claim's key (in Redis), for logs and tests. */
  key(file: string): string;
  /** Null when another watcher holds it. */
  acquire(file: string, token: string, ttlMs: number): Promise<Claim | null>;
}

/** The run log (src/app/runs/runLog.ts): one run per taken file, and the hot folders as sources. */
export interface HotFolderRuns {
  save(run: RunRecord): Promise<unknown>;
  get(id: string): Promise<RunRecord | null>;
  registerSource(kind: 'watch', name: string, source: string, now: number): Promise<void>;
  touchSource(kind: 'watch', name: string, at: { checkedAt: number; newAt?: number }): Promise<void>;
  sources(): Promise<SourceStatus[]>;
}

/**
 * Where a batch's files went (src/adapters/redis/dropMoves.ts, kept with the batch): a retry reads a
 * failed item from there and `photowire failed` prints that place, not the drop path that is gone.
 */
export interface HotFolderMoves {
  /** Each moved top-level entry's old and new path; false when the batch no longer exists. */
  record(batchId: string, moves: ReadonlyArray<{ from: string; to: string }>): Promise<boolean>;
}

/**
 * PHOTOWIRE_PAIR_WAIT's memory (src/adapters/redis/pairWaits.ts), shared by the watchers of a
 * folder and kept across restarts: since when an entry has waited for its pair, and whether the
 * folder receives deliveries (then a picture dropped before its XML waits for it).
 */
export interface HotFolderPairs {
  /** Since when `name` has waited; `now` is recorded when it is the first time. */
  since(dir: string, name: string, now: number): Promise<number>;
  clear(dir: string, names: string[]): Promise<void>;
  markDelivery(dir: string, now: number): Promise<void>;
  isDelivery(dir: string): Promise<boolean>;
}

export interface HotFolderLogger extends IngestLogger {
  error(obj: object, msg: string): void;
  child(bindings: object): HotFolderLogger;
}

export interface HotFolderPorts {
  files: HotFolderFiles;
  ingest: HotFolderIngest;
  claims: HotFolderClaims;
  runs: HotFolderRuns;
  moves: HotFolderMoves;
  pairs: HotFolderPairs;
  logger: HotFolderLogger;
  /** Wall time (ms): settle decisions, run records, the day folder of a move. */
  now: () => number;
  /** A short random hex string: claim tokens and ids of runs that have no batch. */
  nonce: () => string;
}

/** The service's settings, every default resolved (hotFolderPorts.ts: hotFolderSettings). */
export interface HotFolderSettings {
  /** Absolute paths. */
  dirs: string[];
  settleMs: number;
  scanMs: number;
  /** How long a claim outlives a watcher that died holding it. */
  claimTtlMs: number;
  /** Also scan as soon as the folder reports a change (polling still runs: fs.watch misses events on network mounts). */
  fsWatch: boolean;
  /** Names this watcher in claims and logs. */
  owner: string;
  /** How long a folder waits for temp-named files inside it before that is reported. */
  holdWarnMs: number;
  /** Most entries this watcher takes at once. */
  maxTakes: number;
  /** PHOTOWIRE_STALE_HOURS: a hot folder silent this long is reported. */
  staleHours: number;
  /** PHOTOWIRE_PAIR_WAIT: how long a delivery's XML waits for its picture, and a picture for its XML (0: no wait). */
  pairWaitMs: number;
}
