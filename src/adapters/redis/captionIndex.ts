import * as os from 'node:os';
import type { Redis } from 'ioredis';
import type { ClusterRef } from '../../schemas/record';
import { hashString32 } from '../../core/dedup/hash32';
import type { BandKey } from '../../core/dedup/minhash';
import {
  ANCHOR_TOKENS,
  CONTAINMENT_DISCOUNT,
  DEFAULT_BUCKET_CAPACITY,
  DEFAULT_DEDUP_THRESHOLD,
  DEFAULT_MAX_CANDIDATES,
  LSH_BANDS,
  LSH_ROWS,
  MAX_EXTRA_SHINGLES,
  MIN_CONTAINED_SHINGLES,
  SHINGLE_WORDS,
  SIGNATURE_VERSION,
} from '../../core/dedup/params';
import { signCaption, type CaptionSignature } from '../../core/dedup/signature';
import { wordDiff } from '../../core/dedup/wordDiff';
import { ASSIGN_CAPTION_LUA, EXPIRE_CLUSTER_LUA, EXPIRE_DRAIN_LUA } from './captionIndexScript';
import { luaScript, runScript } from './scripts';

const ASSIGN_CAPTIONS = luaScript('pwDedupAssignCaptions', ASSIGN_CAPTION_LUA);
const EXPIRE_CLUSTER = luaScript('pwDedupExpireCluster', EXPIRE_CLUSTER_LUA);
const EXPIRE_DRAIN = luaScript('pwDedupExpireDrain', EXPIRE_DRAIN_LUA);

/** Last-seen shards (`s:<hex>`): 2^13, by a cluster id's first 13 bits (the script's seenKey()). */
export const SEEN_SHARD_BITS = 13;
const SEEN_SHARDS = 1 << SEEN_SHARD_BITS;
/** Most members, trail entries per expiry script call; shards read per round trip. */
const EXPIRY_MEMBERS_PER_CALL = 500;
const EXPIRY_TRAIL_PER_CALL = 256;
const EXPIRY_SHARDS_PER_READ = 256;

/**
 * The index's default: issue 12's captionSimilarity() at DEFAULT_DEDUP_THRESHOLD (0.50), the measure
 * its script implements (layout v2). See docs/DEDUP.md.
 */
export const DEFAULT_INDEX_THRESHOLD = DEFAULT_DEDUP_THRESHOLD;

export interface CaptionIndexOptions {
  /** Key prefix, e.g. "photowire:dedup"; a ':' is added unless it already ends with one. */
  prefix: string;
  /**
   * captionSimilarity() at or above which a caption joins a cluster. Part of the key base
   * (`<prefix>:v2t0.5:`): another threshold is another index, built by `photowire clusters rebuild`.
   */
  threshold?: number;
  /**
   * Items are spread over 2^itemShardBits small hashes, band buckets over 2^bucketShardBits
   * hashes per band. Small hashes stay in Redis's compact listpack encoding (<= 128 entries), which
   * is what keeps memory under 1 KB per caption; the defaults suit up to ~2M captions. Fixed for
   * the life of an index (recorded in its meta key).
   */
  itemShardBits?: number;
  bucketShardBits?: number;
  /** Most candidate clusters verified per caption (most band hits first). */
  maxCandidates?: number;
  /** Most cluster ids one band bucket remembers; beyond that the oldest is forgotten. */
  bucketCapacity?: number;
  /**
   * Use this threshold's own key base, never the one `<prefix>:active` names: what
   * `photowire clusters rebuild` builds before the swap. Default false: the index opens the base
   * the pointer names (set to this threshold's base when there is none yet).
   */
  pinned?: boolean;
  /** Milliseconds since the epoch, for the clusters' last-seen times (default Date.now; tests pass a fake clock). */
  clock?: () => number;
  /**
   * Most captions one script call decides (default DEFAULT_ASSIGN_BATCH). The assigns made in one
   * tick on this CaptionIndex (and assignMany's items) go in as few calls as this allows, in the
   * order they were made; 1 is one call per caption.
   */
  batchSize?: number;
}

/** What CaptionIndex.expireIdle() did (or, with dryRun, would do). */
export interface CaptionExpiryReport {
  /** Clusters last seen before this were idle. */
  cutoff: string;
  dryRun: boolean;
  /** Clusters removed (with dryRun: idle clusters counted, nothing removed). */
  clustersRemoved: number;
  /** Idle when looked at, seen again before their removal: kept. */
  clustersKept: number;
  bucketEntriesRemoved: number;
  aliasesRemoved: number;
  membershipsRemoved: number;
  /** True when every last-seen shard was walked (the cursor is back at the start). */
  done: boolean;
}

/** What assignMany's script calls did: clusters created, captions joined, items already known. */
export interface AssignOutcomes {
  created: number;
  joined: number;
  known: number;
}

export interface ClusterMember {
  itemId: string;
  similarity: number;
  exact: boolean;
}

export interface ClusterInfo {
  id: string;
  canonicalId: string;
  canonicalCaption: string;
  size: number;
  /** The canonical item first, then the others in the order they joined. */
  members: ClusterMember[];
}

type AssignReply = [string, string, string, number, 'created' | 'joined' | 'known', string?] | ['!', string];

/** One caption waiting in the queue of assign()/assignMany() for the next script call. */
interface Pending {
  itemId: string;
  caption: string;
  sig: CaptionSignature;
  outcomes?: AssignOutcomes;
  resolve: (ref: ClusterRef) => void;
  reject: (err: unknown) => void;
}

/**
 * Last-seen times are whole hours: a cluster joined again within the hour keeps its score, and a
 * ZADD with the score a member already has changes nothing (no delete and re-insert in the
 * shard's listpack), which halved the ZADD time per caption in the bench (docs/DEDUP.md). Expiry
 * counts days (PHOTOWIRE_DEDUP_RETENTION_DAYS), so a cluster may expire up to an hour early.
 */
export const LAST_SEEN_STEP_SECONDS = 3600;

/** The last-seen time the script records for a caption decided at nowMs (seconds, whole hours). */
export function lastSeenNow(nowMs: number): number {
  const s = Math.floor(nowMs / 1000);
  return s - (s % LAST_SEEN_STEP_SECONDS);
}

/** Default most captions decided per script call (CaptionIndexOptions.batchSize). */
export const DEFAULT_ASSIGN_BATCH = 16;

const CLUSTER_ID = /^[0-9a-f]{16}$/;
const MAX_ITEM_ID_BYTES = 1024;

function intOption(name: string, v: number | undefined, dflt: number, min: number, max: number): number {
  const x = v ?? dflt;
  if (!Number.isInteger(x) || x < min || x > max) throw new RangeError(`CaptionIndex ${name} must be an integer in [${min}, ${max}], got ${v}`);
  return x;
}

/**
 * Near-duplicate caption clusters, kept in Redis and shared by every worker: one atomic script
 * per caption decides which cluster it joins. See docs/DEDUP.md for the layout and measurements.
 */
export class CaptionIndex {
  private thresholdValue: number;
  private thresholdArg: string;
  private readonly redis: Redis;
  /** The key base in use: this threshold's own (`ownBase`) or the one the active pointer names. */
  private base: string;
  private readonly ownBase: string;
  private readonly pointerKey: string;
  private readonly pinned: boolean;
  private opened: Promise<void> | null = null;
  private readonly itemMask: number;
  private readonly bucketShardBits: number;
  private readonly maxCandidates: number;
  private readonly bucketCapacity: number;
  private readonly layout: string;
  private layoutChecked: Promise<void> | null = null;
  private readonly clock: () => number;
  private readonly batchSize: number;
  private queue: Pending[] = [];
  private flushScheduled = false;

  constructor(redis: Redis, opts: CaptionIndexOptions) {
    if (!opts.prefix) throw new RangeError('CaptionIndex needs a key prefix');
    // The script builds cluster and bucket key names itself, so ioredis's keyPrefix would miss them.
    if (redis.options?.keyPrefix) throw new RangeError('CaptionIndex needs a connection without keyPrefix: pass the prefix in its options');
    const threshold = opts.threshold ?? DEFAULT_INDEX_THRESHOLD;
    if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`dedup threshold must be in (0, 1], got ${threshold}`);
    this.thresholdValue = threshold;
    this.thresholdArg = String(threshold);
    const itemShardBits = intOption('itemShardBits', opts.itemShardBits, 16, 0, 24);
    this.bucketShardBits = intOption('bucketShardBits', opts.bucketShardBits, 14, 0, 16);
    this.maxCandidates = intOption('maxCandidates', opts.maxCandidates, DEFAULT_MAX_CANDIDATES, 1, 10_000);
    this.bucketCapacity = intOption('bucketCapacity', opts.bucketCapacity, DEFAULT_BUCKET_CAPACITY, 1, 10_000);
    this.itemMask = (1 << itemShardBits) - 1;
    this.base = this.ownBase = indexBase(opts.prefix, threshold);
    this.pointerKey = activePointerKey(opts.prefix);
    this.pinned = opts.pinned ?? false;
    this.clock = opts.clock ?? Date.now;
    this.layout = `k=${SHINGLE_WORDS} bands=${LSH_BANDS}x${LSH_ROWS}+anchors${ANCHOR_TOKENS} items=${itemShardBits} buckets=${this.bucketShardBits}`;
    this.batchSize = intOption('batchSize', opts.batchSize, DEFAULT_ASSIGN_BATCH, 1, 256);
    this.redis = redis;
  }

  /**
   * captionSimilarity() at or above which a caption joins: the configured one until the index is
   * opened, then the threshold of the base it serves (the active pointer's, unless pinned).
   */
  get threshold(): number {
    return this.thresholdValue;
  }

  /** The key base this index reads and writes (after open(): the active one, unless pinned). */
  get keyBase(): string {
    return this.base;
  }

  /** The key base this threshold and signature version give (what a rebuild builds). */
  get configuredBase(): string {
    return this.ownBase;
  }

  /**
   * Read the active pointer (`<prefix>:active`) and serve the base it names; when there is none,
   * name this threshold's base (SET NX), so a later change of PHOTOWIRE_DEDUP_THRESHOLD keeps the
   * old index serving until `photowire clusters rebuild` swaps. A pointer naming another
   * signature version (this code cannot compute its signatures) is ignored. Pinned: own base.
   */
  open(): Promise<void> {
    this.opened ??= (async () => {
      if (this.pinned) return;
      await this.redis.set(this.pointerKey, this.ownBase, 'NX');
      this.useBase(await this.redis.get(this.pointerKey));
    })().catch((err: unknown) => {
      this.opened = null;
      throw err;
    });
    return this.opened;
  }

  /** Make this base the active one (`<prefix>:active`), the swap of `clusters rebuild`. */
  async activate(): Promise<void> {
    await this.redis.set(this.pointerKey, this.ownBase);
  }

  private useBase(named: string | null): void {
    const parsed = named === null ? null : parseBase(this.ownBase, named);
    const next = parsed ? parsed.base : this.ownBase;
    if (next === this.base) return;
    this.base = next;
    this.thresholdValue = parsed ? parsed.threshold : this.thresholdValue;
    this.thresholdArg = String(this.thresholdValue);
    this.layoutChecked = null;
  }

  /**
   * Put a cleaned caption in its cluster and return the item's cluster reference, or null when the
   * caption has no words (empty captions get no cluster). Idempotent per itemId: a retry returns
   * the first answer and adds nothing, even if the caption passed differs.
   */
  async assign(itemId: string, cleanedCaption: string): Promise<ClusterRef | null> {
    checkItemId(itemId);
    const sig = signCaption(cleanedCaption);
    if (sig === null) return null;
    await this.checkLayout();
    return this.enqueue(itemId, cleanedCaption, sig);
  }

  /**
   * assign() for many items, decided in the order given (in script calls of at most batchSize
   * items, sent in order on this connection, which Redis runs in order). A batch assigned this way
   * gets the same partition however many other workers run, unless they assign near-duplicates of
   * its captions at the same moment. An item that cannot be placed fails the returned promise; the
   * items around it are still decided (a retry is idempotent).
   */
  async assignMany(items: ReadonlyArray<{ itemId: string; caption: string }>, outcomes?: AssignOutcomes): Promise<Array<ClusterRef | null>> {
    for (const it of items) checkItemId(it.itemId);
    const sigs = items.map((it) => signCaption(it.caption));
    if (sigs.some((s) => s !== null)) await this.checkLayout();
    const pending = items.map((it, i) => (sigs[i] === null ? null : this.enqueue(it.itemId, it.caption, sigs[i]!, outcomes)));
    const settled = await Promise.allSettled(pending);
    return settled.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    });
  }

  /** Queue one caption for the next script call (sent at the end of this tick, or at once when the queue is full). */
  private enqueue(itemId: string, caption: string, sig: CaptionSignature, outcomes?: AssignOutcomes): Promise<ClusterRef> {
    return new Promise<ClusterRef>((resolve, reject) => {
      this.queue.push({ itemId, caption, sig, outcomes, resolve, reject });
      if (this.queue.length >= this.batchSize) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        process.nextTick(() => {
          this.flushScheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      this.send(batch).catch((err: unknown) => {
        for (const p of batch) p.reject(err);
      });
    }
  }

  /** One script call for a batch of queued captions, decided in order (captionIndexScript.ts). */
  private async send(batch: Pending[]): Promise<void> {
    const keys: string[] = [this.sizesKey()];
    const args: Array<string | Buffer | number> = [
      batch.length,
      this.thresholdArg,
      this.maxCandidates,
      this.bucketCapacity,
      CONTAINMENT_DISCOUNT,
      MIN_CONTAINED_SHINGLES,
      MAX_EXTRA_SHINGLES,
      this.base,
      lastSeenNow(this.clock()),
    ];
    for (const { itemId, caption, sig } of batch) {
      const buckets = sig.bands.map((b) => this.bucket(b));
      const fields = Buffer.allocUnsafe(6 * buckets.length);
      // Where each bucket is, for the cluster's trail.
      const locs = Buffer.allocUnsafe(3 * buckets.length);
      keys.push(this.itemKey(itemId));
      buckets.forEach((b, i) => {
        keys.push(b.key);
        b.field.copy(fields, 6 * i);
        locs.writeUInt8(b.band, 3 * i);
        locs.writeUInt16BE(b.shard, 3 * i + 1);
      });
      // Where these exact words' earlier decision is kept; the clusters' own keys the script
      // derives from the base (one hash slot, captionIndexScript.ts).
      keys.push(`${this.base}a:${sig.clusterId}`);
      args.push(itemId, buckets.length, shingleBytes(sig.shingles), caption, fields, sig.clusterId + sig.altClusterId, locs);
    }
    const replies = await runScript<AssignReply[]>(this.redis, ASSIGN_CAPTIONS, keys, args);
    batch.forEach((p, i) => {
      const reply = replies[i];
      if (reply[0] === '!') {
        p.reject(new Error(`${reply[1]} (item ${p.itemId})`));
        return;
      }
      const [id, canonicalId, similarity, exact, outcome, canonicalCaption] = reply as Exclude<AssignReply, ['!', string]>;
      if (p.outcomes) p.outcomes[outcome]++;
      try {
        p.resolve(this.ref(id, canonicalId, Number(similarity), exact === 1, p.caption, canonicalCaption));
      } catch (err) {
        p.reject(err);
      }
    });
  }

  private ref(id: string, canonicalId: string, similarity: number, exact: boolean, cleanedCaption: string, canonicalCaption: string | undefined): ClusterRef {
    const ref: ClusterRef = { id, canonicalId, similarity, exact };
    // What differs from the canonical caption, word by word (issue 12): small, kept on the record.
    if (!exact && typeof canonicalCaption === 'string') ref.diff = wordDiff(canonicalCaption, cleanedCaption);
    return ref;
  }

  /**
   * The cluster references this index holds for items already in it, read-only (no assignment):
   * what assign() would answer for them, `cluster.diff` included (null for an item not in the
   * index). For patching stored records after `photowire clusters rebuild` swapped the index.
   */
  async refsOf(items: ReadonlyArray<{ itemId: string; caption: string }>): Promise<Array<ClusterRef | null>> {
    await this.open();
    if (items.length === 0) return [];
    const pipe = this.redis.pipeline();
    for (const it of items) pipe.hget(this.itemKey(it.itemId), it.itemId);
    const members = ((await pipe.exec()) ?? []).map(([err, value], i) => {
      if (err) throw err;
      if (value === null) return null;
      const m = parseMembership(value as string);
      if (m === null) throw new Error(`dedup index ${this.base}: item ${items[i].itemId} has a malformed membership record`);
      return m;
    });
    const ids = [...new Set(members.flatMap((m) => (m ? [m.clusterId] : [])))];
    const heads = new Map<string, { canonicalId: string; canonicalCaption: string }>();
    if (ids.length > 0) {
      const heads0 = await this.redis.mgetBuffer(...ids.map((id) => `${this.base}c:${id}`));
      ids.forEach((id, i) => {
        const head = heads0[i];
        if (head === null) throw new Error(`dedup index ${this.base}: cluster ${id} of a member is missing`);
        heads.set(id, parseClusterHead(head));
      });
    }
    return items.map((it, i) => {
      const m = members[i];
      if (m === null) return null;
      const h = heads.get(m.clusterId)!;
      return this.ref(m.clusterId, h.canonicalId, m.similarity, m.exact, it.caption, h.canonicalCaption);
    });
  }

  /** A cluster with its canonical caption and members, or null if no such cluster exists. */
  async getCluster(clusterId: string): Promise<ClusterInfo | null> {
    if (!CLUSTER_ID.test(clusterId)) return null;
    await this.open();
    const [[e1, head], [e2, rest]] = (await this.redis
      .multi()
      .getBuffer(`${this.base}c:${clusterId}`)
      .lrange(`${this.base}m:${clusterId}`, 0, -1)
      .exec()) as [[Error | null, Buffer | null], [Error | null, string[]]];
    if (e1 || e2) throw e1 ?? e2;
    if (head === null) return null;
    const { canonicalId, canonicalCaption } = parseClusterHead(head);
    const members: ClusterMember[] = [{ itemId: canonicalId, similarity: 1, exact: true }];
    if (rest.length > 0) {
      const pipe = this.redis.pipeline();
      for (const itemId of rest) pipe.hget(this.itemKey(itemId), itemId);
      const replies = (await pipe.exec()) ?? [];
      rest.forEach((itemId, i) => {
        const [err, value] = replies[i] as [Error | null, string | null];
        if (err) throw err;
        const m = value === null ? null : parseMembership(value);
        if (m === null) throw new Error(`dedup index ${this.base}: member ${itemId} of cluster ${clusterId} has no membership record`);
        members.push({ itemId, similarity: m.similarity, exact: m.exact });
      });
    }
    return { id: clusterId, canonicalId, canonicalCaption, size: members.length, members };
  }

  /**
   * Clusters, largest first (then by id). With itemIds: the clusters those items belong to (whole
   * clusters, including members from other batches). Without: clusters of at least minSize
   * (default 1) from the whole index; minSize >= 2 reads the index of multi-member clusters
   * (`sizes`) and each one's size, minSize 1 scans every cluster key, which is slow on a large
   * index: pass limit.
   */
  async listClusters(opts: { minSize?: number; itemIds?: string[]; limit?: number } = {}): Promise<ClusterInfo[]> {
    const minSize = opts.minSize ?? 1;
    const limit = opts.limit ?? Infinity;
    await this.open();
    let ids: string[];
    if (opts.itemIds) {
      ids = await this.clusterIdsOf(opts.itemIds);
    } else if (minSize >= 2) {
      // Scores are 2 (the size a cluster had when it was added), so every entry is read and the
      // real sizes filtered below.
      ids = await this.redis.zrangebyscore(this.sizesKey(), 2, '+inf');
    } else {
      ids = await this.scanClusterIds();
    }
    const out: ClusterInfo[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const infos = await Promise.all(ids.slice(i, i + 500).map((id) => this.getCluster(id)));
      for (const c of infos) if (c !== null && c.size >= minSize) out.push(c);
    }
    out.sort((a, b) => b.size - a.size || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return Number.isFinite(limit) ? out.slice(0, limit) : out;
  }

  /**
   * Run `fn` holding this index's batch lock (`<base>lock`), so that two batches' ordered
   * assignments (the finalize jobs' clusterBatch) never interleave: batches are decided in the
   * order their finalize jobs take the lock. The lock lives `ttlMs` and is renewed while `fn`
   * runs; a holder that died frees it when it expires. Waits at most `waitMs` for it.
   */
  async withBatchLock<T>(owner: string, fn: () => Promise<T>, opts: { ttlMs?: number; waitMs?: number } = {}): Promise<T> {
    const ttlMs = opts.ttlMs ?? 30_000;
    const waitMs = opts.waitMs ?? 10 * 60_000;
    await this.open();
    const token = `${owner} ${os.hostname()} ${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
    const deadline = Date.now() + waitMs;
    // KEYS[1] lock; ARGV[1] token, ARGV[2] ttl ms ('' to release). Only the holder renews or releases.
    const own = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`;
    let key: string;
    for (;;) {
      key = `${this.base}lock`;
      while ((await this.redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
        if (Date.now() > deadline) throw new Error(`dedup index ${this.base}: ${owner} waited ${waitMs} ms for the batch lock held by "${await this.redis.get(key)}"`);
        await new Promise((r) => setTimeout(r, 20));
      }
      if (this.pinned) break;
      // A rebuild swaps the active pointer holding the old index's lock: read it again under the
      // lock, so a batch finalized after the swap goes to the new index (docs/DEDUP.md "rebuild").
      const before = this.base;
      this.useBase(await this.redis.get(this.pointerKey));
      if (this.base === before) break;
      await this.redis.eval(own, 1, key, token, '');
    }
    const timer = setInterval(() => void this.redis.eval(own, 1, key, token, String(ttlMs)).catch(() => undefined), Math.max(50, Math.floor(ttlMs / 3)));
    timer.unref?.();
    try {
      return await fn();
    } finally {
      clearInterval(timer);
      await this.redis.eval(own, 1, key, token, '');
    }
  }

  /**
   * Retention of the index (issue 14, PHOTOWIRE_DEDUP_RETENTION_DAYS): remove the clusters not seen
   * (created or joined) within `retentionDays` of `now`: each one's canonical caption `c:`, member
   * list, trail, size and last-seen entries, its id from every bucket (the canonical caption's own
   * bands, computed again from the stored caption, and the trail's), the aliases that name it and
   * its members' memberships. A later resend of such a caption starts a new cluster.
   *
   * One atomic script per cluster (EXPIRE_CLUSTER_LUA), which first checks the cluster is still
   * idle (a caption that joined meanwhile keeps it); bounded work per call (at most 256 trail
   * entries and 500 members; a bigger cluster takes several calls, its extra members drained from
   * `d:<id>`). Resumable: at most `maxClusters` (default 10,000) per call, the walk over the 2^13
   * last-seen shards keeps its place in `<base>expiry`, so the next call goes on where this one
   * stopped (`done` says the walk reached its end). Idempotent: what is removed is gone, a second
   * call finds nothing. Clusters written before last-seen existed (no `s:` entry) never expire
   * until they are seen again or the index is rebuilt.
   */
  async expireIdle(opts: { now?: Date; retentionDays: number; dryRun?: boolean; maxClusters?: number }): Promise<CaptionExpiryReport> {
    if (!(opts.retentionDays > 0)) throw new RangeError(`dedup retention days must be > 0, got ${opts.retentionDays}`);
    await this.open();
    const nowMs = opts.now ? opts.now.getTime() : this.clock();
    const cutoff = Math.floor(nowMs / 1000) - Math.round(opts.retentionDays * 86_400);
    const dryRun = opts.dryRun ?? false;
    const maxClusters = opts.maxClusters ?? 10_000;
    const report: CaptionExpiryReport = {
      cutoff: new Date(cutoff * 1000).toISOString(),
      dryRun,
      clustersRemoved: 0,
      clustersKept: 0,
      bucketEntriesRemoved: 0,
      aliasesRemoved: 0,
      membershipsRemoved: 0,
      done: false,
    };
    const shardKey = (k: number) => `${this.base}s:${k.toString(16)}`;
    if (dryRun) {
      for (let k = 0; k < SEEN_SHARDS; k += EXPIRY_SHARDS_PER_READ) {
        const pipe = this.redis.pipeline();
        for (let j = k; j < Math.min(SEEN_SHARDS, k + EXPIRY_SHARDS_PER_READ); j++) pipe.zcount(shardKey(j), '-inf', `(${cutoff}`);
        for (const [err, n] of (await pipe.exec()) ?? []) {
          if (err) throw err;
          report.clustersRemoved += n as number;
        }
      }
      report.done = true;
      return report;
    }
    // A pass stopped while draining a big cluster's members: finish that first.
    for (const x of await this.redis.smembers(this.drainingKey())) report.membershipsRemoved += await this.drain(x);

    const cursorKey = `${this.base}expiry`;
    let shard = Number((await this.redis.get(cursorKey)) ?? 0);
    if (!(shard >= 0 && shard < SEEN_SHARDS)) shard = 0;
    walk: while (shard < SEEN_SHARDS) {
      const end = Math.min(SEEN_SHARDS, shard + EXPIRY_SHARDS_PER_READ);
      const pipe = this.redis.pipeline();
      for (let j = shard; j < end; j++) pipe.zrangebyscore(shardKey(j), '-inf', `(${cutoff}`, 'LIMIT', 0, maxClusters - report.clustersRemoved);
      const replies = (await pipe.exec()) ?? [];
      for (let j = shard; j < end; j++) {
        const [err, ids] = replies[j - shard] as [Error | null, string[]];
        if (err) throw err;
        for (const id of ids) {
          if (report.clustersRemoved >= maxClusters) break;
          const r = await this.expireCluster(id, cutoff, shardKey(j));
          if (r.outcome === 'removed') report.clustersRemoved++;
          else if (r.outcome === 'kept') report.clustersKept++;
          report.bucketEntriesRemoved += r.entries;
          report.aliasesRemoved += r.aliases;
          report.membershipsRemoved += r.memberships;
        }
        // Budget spent: the next call starts again at this shard (what is removed is gone).
        if (report.clustersRemoved >= maxClusters) {
          shard = j;
          break walk;
        }
      }
      shard = end;
    }
    report.done = shard >= SEEN_SHARDS;
    if (report.done) await this.redis.del(cursorKey);
    else await this.redis.set(cursorKey, String(shard));
    return report;
  }

  private drainingKey(): string {
    return `${this.base}draining`;
  }

  /** One idle cluster out of the index (EXPIRE_CLUSTER_LUA), in as many calls as its trail needs. */
  private async expireCluster(id: string, cutoff: number, seenKey: string): Promise<{ outcome: string; entries: number; aliases: number; memberships: number }> {
    const out = { outcome: 'gone', entries: 0, aliases: 0, memberships: 0 };
    const raw = Buffer.from(id, 'hex');
    for (;;) {
      const [[e1, head], [e2, members], [e3, trail]] = (await this.redis
        .multi()
        .getBuffer(`${this.base}c:${id}`)
        .lrange(`${this.base}m:${id}`, 0, EXPIRY_MEMBERS_PER_CALL - 1)
        .getBuffer(`${this.base}t:${id}`)
        .exec()) as [[Error | null, Buffer | null], [Error | null, string[]], [Error | null, Buffer | null]];
      if (e1 || e2 || e3) throw e1 ?? e2 ?? e3;
      // Buckets: the canonical caption's own bands, then the trail's entries (deduplicated).
      const buckets = new Map<string, { key: string; field: Buffer }>();
      const items: string[] = [];
      if (head !== null) {
        const { canonicalId, canonicalCaption } = parseClusterHead(head);
        items.push(canonicalId);
        const sig = signCaption(canonicalCaption);
        for (const b of sig ? sig.bands : []) {
          const bk = this.bucket(b);
          buckets.set(bk.key + bk.field.toString('hex'), bk);
        }
      }
      items.push(...members);
      const aliases: string[] = [];
      let read = 0;
      let entries = 0;
      while (trail !== null && read < trail.length && entries < EXPIRY_TRAIL_PER_CALL) {
        const kind = trail[read];
        if (kind === 0x62 /* b */ && read + 10 <= trail.length) {
          const key = this.bucketKey(trail[read + 1], trail.readUInt16BE(read + 2));
          const field = trail.subarray(read + 4, read + 10);
          buckets.set(key + field.toString('hex'), { key, field });
          read += 10;
        } else if (kind === 0x61 /* a */ && read + 17 <= trail.length) {
          aliases.push(`${this.base}a:${trail.subarray(read + 1, read + 17).toString('latin1')}`);
          read += 17;
        } else {
          throw new Error(`dedup index ${this.base}: cluster ${id} has a malformed trail at byte ${read}`);
        }
        entries++;
      }
      const bl = [...buckets.values()];
      const keys = [
        seenKey,
        `${this.base}c:${id}`,
        `${this.base}m:${id}`,
        `${this.base}t:${id}`,
        this.sizesKey(),
        `${this.base}d:${id}`,
        this.drainingKey(),
        ...bl.map((b) => b.key),
        ...aliases,
        ...items.map((it) => this.itemKey(it)),
      ];
      const [outcome, ent, al, mem, left] = await runScript<[string, number, number, number, number]>(this.redis, EXPIRE_CLUSTER, keys, [
        id,
        cutoff,
        bl.length,
        aliases.length,
        Buffer.concat(bl.map((b) => b.field)),
        raw,
        read,
        members.length,
        ...items,
      ]);
      out.outcome = outcome;
      out.entries += ent;
      out.aliases += al;
      out.memberships += mem;
      if (outcome === 'partial') continue;
      if (outcome === 'removed' && left > 0) out.memberships += await this.drain(id);
      return out;
    }
  }

  /** Remove the memberships of an expired cluster's members left in d:<id> (EXPIRE_DRAIN_LUA), 500 per call. */
  private async drain(id: string): Promise<number> {
    const dkey = `${this.base}d:${id}`;
    let removed = 0;
    for (;;) {
      const items = await this.redis.lrange(dkey, 0, EXPIRY_MEMBERS_PER_CALL - 1);
      if (items.length === 0) {
        await this.redis.srem(this.drainingKey(), id);
        return removed;
      }
      const [n, left] = await runScript<[number, number]>(this.redis, EXPIRE_DRAIN, [dkey, this.drainingKey(), ...items.map((it) => this.itemKey(it))], [id, ...items]);
      removed += n;
      if (left === 0) return removed;
    }
  }

  /** Where a caption's bands live (for diagnostics and tests that plant bucket collisions). */
  locate(cleanedCaption: string): { signature: CaptionSignature; buckets: Array<{ key: string; field: Buffer }> } | null {
    const sig = signCaption(cleanedCaption);
    return sig === null ? null : { signature: sig, buckets: sig.bands.map((b) => this.bucket(b)) };
  }

  /**
   * Delete every key of this index (SCAN + UNLINK on its base), and the active pointer when it
   * names this index. Returns how many were deleted.
   */
  async deleteAll(): Promise<number> {
    await this.open();
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.base}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await this.redis.unlink(...keys);
    } while (cursor !== '0');
    // The active pointer lives outside the base: gone too when it names this index.
    // KEYS[1] pointer; ARGV[1] this base.
    deleted += (await this.redis.eval(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, 1, this.pointerKey, this.base)) as number;
    this.layoutChecked = null;
    this.opened = null;
    return deleted;
  }

  private async clusterIdsOf(itemIds: string[]): Promise<string[]> {
    const ids = new Set<string>();
    for (let i = 0; i < itemIds.length; i += 1000) {
      const chunk = itemIds.slice(i, i + 1000);
      const pipe = this.redis.pipeline();
      for (const itemId of chunk) pipe.hget(this.itemKey(itemId), itemId);
      for (const [err, value] of (await pipe.exec()) ?? []) {
        if (err) throw err;
        const m = typeof value === 'string' ? parseMembership(value) : null;
        if (m !== null) ids.add(m.clusterId);
      }
    }
    return [...ids];
  }

  private async scanClusterIds(): Promise<string[]> {
    const ids = new Set<string>(); // SCAN may return a key more than once
    const prefix = `${this.base}c:`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const k of keys) ids.add(k.slice(prefix.length));
    } while (cursor !== '0');
    return [...ids];
  }

  /**
   * The shard counts and signature parameters decide where keys live; an index written with other
   * ones would silently stop finding old clusters, so refuse it instead.
   */
  private checkLayout(): Promise<void> {
    this.layoutChecked ??= (async () => {
      await this.open();
      const key = `${this.base}meta`;
      const created = await this.redis.set(key, this.layout, 'NX');
      const prev = created === 'OK' ? this.layout : await this.redis.get(key);
      if (prev !== this.layout) {
        throw new Error(`dedup index ${this.base} was built with "${prev}", this code uses "${this.layout}": use another prefix or rebuild the index`);
      }
    })().catch((err: unknown) => {
      this.layoutChecked = null;
      throw err;
    });
    return this.layoutChecked;
  }

  private itemKey(itemId: string): string {
    return `${this.base}i:${(hashString32(itemId) & this.itemMask).toString(36)}`;
  }

  private sizesKey(): string {
    return `${this.base}sizes`;
  }

  /** Band b lives in hash b<band>:<shard hex>, field = 6 bytes of the band's 64-bit key. */
  private bucket(b: BandKey): { key: string; field: Buffer; band: number; shard: number } {
    const shard = this.shardOf(b);
    const field = Buffer.allocUnsafe(6);
    field.writeUInt32BE(b.hi, 0);
    field.writeUInt16BE(b.lo & 0xffff, 4);
    return { key: this.bucketKey(b.band, shard), field, band: b.band, shard };
  }

  private bucketKey(band: number, shard: number): string {
    return `${this.base}b${band}:${shard.toString(16)}`;
  }

  /** The last-seen shard of a cluster (the script's seenKey()). */
  private seenKey(clusterId: string): string {
    return `${this.base}s:${(parseInt(clusterId.slice(0, 4), 16) >> 3).toString(16)}`;
  }

  private shardOf(b: BandKey): number {
    return (b.lo >>> 16) & ((1 << this.bucketShardBits) - 1);
  }

}

/**
 * Key base of an index: `<prefix>:{v<SIGNATURE_VERSION>t<threshold>}:`. The threshold and the
 * signature version are in the name, so an index is never read with other rules: changing either
 * starts a new index, filled from the catalog by `photowire clusters rebuild`. The braces are a
 * Redis Cluster hash tag: every key of one index is in one slot, so its script may touch the
 * candidate clusters' keys it derives (one call per caption). A prefix that already has a hash
 * tag (`photowire:{dedup}`) keeps it (Redis uses the first one) and gets no second one.
 */
export function indexBase(prefix: string, threshold: number = DEFAULT_INDEX_THRESHOLD): string {
  const p = prefix.endsWith(':') ? prefix : `${prefix}:`;
  const name = `v${SIGNATURE_VERSION}t${threshold}`;
  return /\{[^}]+\}/.test(p) ? `${p}${name}:` : `${p}{${name}}:`;
}

/** The pointer naming the active key base: `<prefix>:active` (e.g. `photowire:dedup:active`). */
export function activePointerKey(prefix: string): string {
  return `${prefix.endsWith(':') ? prefix : `${prefix}:`}active`;
}

/** A pointer value this code can serve: same prefix, same signature version, a valid threshold. */
function parseBase(ownBase: string, named: string): { base: string; threshold: number } | null {
  const m = /^(.*:)\{?v(\d+)t([0-9.eE+-]+)\}?:$/.exec(named);
  const own = /^(.*:)\{?v\d+t/.exec(ownBase);
  if (!m || !own || m[1] !== own[1] || m[2] !== String(SIGNATURE_VERSION)) return null;
  const threshold = Number(m[3]);
  if (!(threshold > 0 && threshold <= 1) || String(threshold) !== m[3]) return null;
  // Only this code's own form of the base (an index of another layout is not read).
  if (named !== indexBase(m[1], threshold)) return null;
  return { base: named, threshold };
}

function checkItemId(itemId: string): void {
  if (typeof itemId !== 'string' || itemId === '' || Buffer.byteLength(itemId) > MAX_ITEM_ID_BYTES) {
    throw new RangeError(`dedup item id must be a non-empty string of at most ${MAX_ITEM_ID_BYTES} bytes, got ${JSON.stringify(itemId)?.slice(0, 80)}`);
  }
}

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** Shingle hashes as 4-byte little-endian values, whatever the machine (every worker must agree). */
function shingleBytes(shingles: Uint32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(shingles.buffer, shingles.byteOffset, shingles.byteLength);
  const buf = Buffer.allocUnsafe(shingles.length * 4);
  for (let i = 0; i < shingles.length; i++) buf.writeUInt32LE(shingles[i], i * 4);
  return buf;
}

/** The canonical item id and caption of a c:<id> value (layout in captionIndexScript.ts). */
function parseClusterHead(head: Buffer): { canonicalId: string; canonicalCaption: string } {
  const n = head.readUInt32BE(0);
  const extra = head.readUInt16BE(4 + 4 * n);
  const p = 4 + 4 * n + 2 + 4 * extra;
  const idLen = head.readUInt16BE(p);
  return { canonicalId: head.subarray(p + 2, p + 2 + idLen).toString('utf8'), canonicalCaption: head.subarray(p + 2 + idLen).toString('utf8') };
}

function parseMembership(value: string): { clusterId: string; exact: boolean; similarity: number } | null {
  const m = /^([0-9a-f]{16})\|([01])\|([0-9.eE+-]+)$/.exec(value);
  if (!m) return null;
  return { clusterId: m[1], exact: m[2] === '1', similarity: Number(m[3]) };
}
