import { createHash, randomBytes } from 'node:crypto';
import { existsSync, watch as fsWatch, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { redisKeys } from '../../adapters/redis/keys';
import { Lease } from '../../adapters/redis/lease';
import type { SourceRuntime } from '../runtime';
import { RunLog } from '../../adapters/redis/runLog';
import { DropMoves } from '../../adapters/redis/dropMoves';
import { PairWaits } from '../../adapters/redis/pairWaits';
import { HotFolderService, WATCH_MAX_TAKES } from './hotFolderService';
import { loadFeed } from '../../adapters/feeds/loadFeed';
import { moveTaken } from './moveTaken';
import type { HotFolderFiles, HotFolderPorts, HotFolderSettings } from './ports';
import { observeEntry, scanHotFolder } from './scanFolder';
import { holdWarnMs } from './settle';

/** What a caller may set; the rest comes from the config (PHOTOWIRE_SETTLE_MS, PHOTOWIRE_SCAN_MS...). */
export interface HotFolderOptions {
  dirs: string[];
  /** Default PHOTOWIRE_SETTLE_MS. */
  settleMs?: number;
  /** Default PHOTOWIRE_SCAN_MS. */
  scanMs?: number;
  /** How long a claim outlives a watcher that died holding it (default 30 s). */
  claimTtlMs?: number;
  /** Also scan as soon as fs.watch reports a change (default on; polling still runs: fs.watch misses events on network mounts). */
  fsWatch?: boolean;
  /** Names this watcher in claims and logs (default host:pid:random). */
  owner?: string;
  /** How long a folder waits for temp-named files inside it before that is reported; default holdWarnMs(settleMs). */
  holdWarnMs?: number;
  /** Most entries this watcher takes at once (each holds a claim and waits for its batch); default WATCH_MAX_TAKES. */
  maxTakes?: number;
  /** Default PHOTOWIRE_PAIR_WAIT. */
  pairWaitMs?: number;
}

/** The hot folders on the local file system. */
export function localHotFolderFiles(maxFeedBytes: number): HotFolderFiles {
  return {
    kindOf: (dir) =>
      fs.stat(dir).then(
        (st) => (st.isDirectory() ? 'folder' : 'other'),
        () => 'missing',
      ),
    scan: (dir, signal) => scanHotFolder(dir, signal),
    observe: (dir, name, signal) => observeEntry(dir, name, signal),
    readLink: (file) => fs.readlink(file).catch(() => null),
    specialKind: async (file) => {
      const st = await fs.lstat(file);
      return st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device';
    },
    realPath: (p) => fs.realpath(p),
    // The one folder-feed reader `run` and `ingest` use: a dropped delivery reads the same.
    loadFolder: (dir, opts) => loadFeed(dir, maxFeedBytes, opts),
    move: moveTaken,
    exists: async (p) => existsSync(p),
    watch: (dir, onChange) => {
      try {
        const w = fsWatch(dir, onChange);
        w.on('error', () => undefined);
        return w;
      } catch {
        return null; // not supported here (some network mounts): polling alone is enough
      }
    },
  };
}

/** The real ports over a runtime: node:fs, claims as leases in its Redis, its run log and ingest service. */
export function hotFolderPorts(rt: SourceRuntime): HotFolderPorts {
  const keys = redisKeys(rt.config.prefix);
  const key = (file: string) => keys.claim(createHash('sha256').update(file).digest('hex'));
  return {
    files: localHotFolderFiles(rt.config.maxFeedBytes),
    ingest: rt.ingest,
    claims: { key, acquire: (file, token, ttlMs) => Lease.acquire(rt.redis, key(file), token, ttlMs) },
    runs: new RunLog(rt.redis, rt.config.prefix),
    moves: new DropMoves(rt.redis, rt.config.prefix),
    pairs: new PairWaits(rt.redis, rt.config.prefix),
    logger: rt.logger,
    now: () => Date.now(),
    nonce: () => randomBytes(4).toString('hex'),
  };
}

export function hotFolderSettings(rt: Pick<SourceRuntime, 'config'>, opts: HotFolderOptions): HotFolderSettings {
  const settleMs = opts.settleMs ?? rt.config.settleMs;
  return {
    dirs: opts.dirs.map((d) => path.resolve(d)),
    settleMs,
    scanMs: opts.scanMs ?? rt.config.scanMs,
    claimTtlMs: opts.claimTtlMs ?? 30_000,
    fsWatch: opts.fsWatch !== false,
    owner: opts.owner ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    holdWarnMs: opts.holdWarnMs ?? holdWarnMs(settleMs),
    maxTakes: opts.maxTakes ?? WATCH_MAX_TAKES,
    staleHours: rt.config.staleHours,
    pairWaitMs: opts.pairWaitMs ?? rt.config.pairWaitMs,
  };
}

/** The hot-folder service on a runtime's real ports (`photowire watch`, src/sources/hotFolder/watcher.ts). */
export function hotFolderService(rt: SourceRuntime, opts: HotFolderOptions): HotFolderService {
  return new HotFolderService(hotFolderPorts(rt), hotFolderSettings(rt, opts));
}

/** Check the folders and start watching them; `stop()` the returned service to end. */
export async function startHotFolders(rt: SourceRuntime, opts: HotFolderOptions): Promise<HotFolderService> {
  const service = hotFolderService(rt, opts);
  await service.start();
  return service;
}
