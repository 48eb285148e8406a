import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import type { Redis } from 'ioredis';
import { PhotowireError } from '../../core/errors';
import { hashString32 } from '../../core/dedup/hash32';
import { bucketEntry, matchBucket, withoutCluster } from '../../core/dedup/subjectBuckets';
import { memberRef, readCaption, type ReadCaption, type SubjectRef } from '../../core/dedup/subjectClusterer';
import {
  compareSubjects,
  pickSubjectCluster,
  signatureDistance,
  subjectHeadOfTokens,
  subjectKeyOfTokens,
  subjectRuleFingerprint,
  type SubjectHead,
  type SubjectMatch,
  MAX_SUBSTITUTIONS,
} from '../../core/dedup/subjectRule';
import { clusterIndexKeys, dedupKeys, keysStartingWith, type ClusterIndexKeys } from './keys';
import { deleteMatching, scanKeys } from './scan';
import { luaFile, runScript } from './scripts';

/** The batch lock is a lease: renewed and released only by its holder (lua/lease/*.lua). */
const RENEW = luaFile('pwRenewLease', 'lease/renew');
const RELEASE = luaFile('pwReleaseLease', 'lease/release');
const APPEND_BUCKETS = luaFile('pwClusterAppendBuckets', 'clusters/appendBuckets');

const ITEM_SHARD_BITS = 16;
/**
 * 2^16 bucket shards: at 1M captions each shard stays a small listpack; with 2^14 the shards were
 * four times longer and took more memory (948 against 921 B per caption at 1M; Redis's command time
 * did not move, docs/DEDUP.md "Measured").
 */
const BUCKET_SHARD_BITS = 16;
/** Last-seen shards (`s:<hex>`), by a cluster id's first 3 hex digits. */
const SEEN_SHARD_BITS = 12;
const SEEN_SHARDS = 1 << SEEN_SHARD_BITS;
/** Canonical heads kept in memory (a bounded cache). */
const CACHE_MAX = 20_000;
/** Clusters read per round trip by listClusters, memberships removed per pipeline by expiry. */
const READ_CHUNK = 500;
/** Last-seen shards read per round trip by the retention walk. */
const EXPIRY_SHARDS_PER_READ = 256;

const CLUSTER_ID = /^[0-9a-f]{15}[0-9a-fx]$/;

/**
 * Last-seen times are whole hours: a cluster joined again within the hour keeps its score (a ZADD
 * that changes nothing), and retention counts days (PHOTOWIRE_DEDUP_RETENTION_DAYS), so a cluster
 * may expire up to an hour early.
 */
export const LAST_SEEN_STEP_SECONDS = 3600;

/** The last-seen time recorded for a caption decided at nowMs (seconds, whole hours). */
export function lastSeenNow(nowMs: number): number {
  const s = Math.floor(nowMs / 1000);
  return s - (s % LAST_SEEN_STEP_SECONDS);
}

export interface SubjectIndexOptions {
  /** PHOTOWIRE_PREFIX. */
  prefix: string;
  /** The fingerprint this build writes and expects (tests pass another to play an older build). */
  fingerprint?: string;
  /** Milliseconds since the epoch, for the clusters' last-seen times (default Date.now; tests pass a fake clock). */
  clock?: () => number;
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

/** What SubjectIndex.expireIdle() did (or, with dryRun, would do). */
export interface CaptionExpiryReport {
  /** Clusters last seen before this were idle. */
  cutoff: string;
  dryRun: boolean;
  /** Clusters removed (with dryRun: idle clusters counted, nothing removed). */
  clustersRemoved: number;
  bucketEntriesRemoved: number;
  membershipsRemoved: number;
  /** True when every last-seen shard was walked (the cursor is back at the start). */
  done: boolean;
}

/** What assignMany did: clusters created, captions joined, items already known. */
export interface AssignOutcomes {
  created: number;
  joined: number;
  known: number;
}

interface StoredCluster {
  id: string;
  canonicalId: string;
  caption: string;
  /** The canonical head, rebuilt from the stored tokens (no caption parsing per candidate). */
  key: SubjectHead;
  /** The canonical caption read, only when a member joins (for its diff and why). */
  read?: ReadCaption;
}

function readOf(c: StoredCluster): ReadCaption {
  c.read ??= readCaption(c.caption)!;
  return c.read;
}

interface BucketField {
  shard: number;
  field: string;
  /** `<shard>:<field>`, for maps of this call. */
  at: string;
  /** The head's signature for this key (SegmentKey.sig). */
  sig: string;
}

/** The rule's fingerprint and this index's shard layout: another layout finds nothing where it looks. */
export function indexFingerprint(): string {
  return `${subjectRuleFingerprint()} shards:items=2^${ITEM_SHARD_BITS},buckets=2^${BUCKET_SHARD_BITS}`;
}

/** 12 hex digits of a segment key, and its bucket shard. */
function bucketField(seg: { key: string; sig: string }): BucketField {
  const a = hashString32(seg.key);
  const b = hashString32(seg.key, 0x9e3779b9);
  const shard = a & ((1 << BUCKET_SHARD_BITS) - 1);
  const field = `${a.toString(16).padStart(8, '0')}${(b >>> 16).toString(16).padStart(4, '0')}`;
  return { shard, field, at: `${shard}:${field}`, sig: seg.sig };
}

/** The entries one call adds to one bucket field. */
interface BucketWrite {
  shard: number;
  field: string;
  added: Array<{ id: string; sig: string }>;
}

const bucketValue = (w: BucketWrite) => w.added.map((e) => bucketEntry(e.id, e.sig)).join('');

const seenShard = (clusterId: string) => parseInt(clusterId.slice(0, 3), 16) & (SEEN_SHARDS - 1);

/** A known item's reference, its diff and why recomputed against the canonical caption. */
function knownRef(local: ReadonlyMap<string, StoredCluster>, stored: string, read: ReadCaption | null): SubjectRef {
  const [id, exact, similarity] = stored.split('|');
  const c = local.get(id);
  if (c === undefined) return { id, canonicalId: '', similarity: Number(similarity), exact: exact === '1' };
  if (exact === '1' || read === null)
    return { id, canonicalId: c.canonicalId, similarity: Number(similarity), exact: exact === '1' };
  return memberRef(id, c.canonicalId, readOf(c), read, compareSubjects(c.key, read.key));
}

const itemShard = (itemId: string) => hashString32(itemId) & ((1 << ITEM_SHARD_BITS) - 1);

/**
 * The caption-cluster index in Redis: the rule of src/core/dedup/subjectRule.ts, exact against the
 * brute force (SubjectClusterer) at the rule's only setting. Each cluster's canonical caption is
 * stored once (`c:<id>`) and listed in the buckets of its head's segment keys
 * (subjectRule.segmentKeys: any two heads the rule joins share one), dropped from a bucket only when
 * retention removes the cluster, so every cluster the rule would join is a candidate; each
 * candidate is verified with the rule itself and the best one joined (fewest changed tokens, ties
 * to the smaller id). Members never extend a cluster, so a late caption never chains two clusters.
 *
 * Decisions run in Node under the index's batch lock (the finalize job holds it for its batch), one
 * pipelined read of memberships and buckets per call, one of the new candidates' canonical
 * captions, and one pipelined write. Retention and `clusters rebuild` hold the same lock, so every
 * read-modify-write of a bucket runs alone (no Lua needed).
 *
 * The fingerprint of the rule is stored at `meta`: an index built with another rule or other
 * parameters is refused at open (`clusters rebuild`), and so is a Redis that still holds only the
 * old threshold index (`<p>:dedup:*`).
 */
export class SubjectIndex {
  readonly keys: ClusterIndexKeys;
  private readonly legacyPointer: string;
  private readonly fingerprint: string;
  private readonly clock: () => number;
  private opened: Promise<void> | null = null;
  private readonly cache = new Map<string, StoredCluster>();
  /** The `generation` the cache was filled under. */
  private cacheGeneration: string | null = null;

  constructor(
    private readonly redis: Redis,
    opts: SubjectIndexOptions,
  ) {
    this.keys = clusterIndexKeys(opts.prefix);
    this.legacyPointer = dedupKeys(opts.prefix).active;
    this.fingerprint = opts.fingerprint ?? indexFingerprint();
    this.clock = opts.clock ?? Date.now;
  }

  /**
   * Checks (or, for a new index, writes) the fingerprint. Refused (CONFIG_INVALID, naming
   * `photowire clusters rebuild`): an index of other parameters, an index a rebuild is filling or
   * left half filled, and a Redis that holds the old threshold index but no index of this rule.
   *
   * The old index is refused, not rebuilt here: a rebuild reads every record of the catalog and
   * rewrites the cluster of each one (minutes on a large catalog, measured at thousands of
   * captions a second in docs/DEDUP.md), every worker and `photowire serve` open the index at
   * start (they would race to do it, or all wait for one), and an operator should choose when the
   * desk's clusters change. Starting empty beside it instead would give every new caption a new
   * cluster while the stored records still name the old ones.
   */
  open(): Promise<void> {
    this.opened ??= (async () => {
      // Two reads: the old pointer is in another Redis Cluster slot than the index's keys.
      const [[stored, rebuilding], legacy] = await Promise.all([
        this.redis.mget(this.keys.meta, this.keys.rebuilding),
        this.redis.get(this.legacyPointer),
      ]);
      if (rebuilding !== null) {
        throw new PhotowireError(
          'CONFIG_INVALID',
          `the caption-cluster index at ${this.keys.base} is being rebuilt, or a rebuild stopped before its end (${rebuilding}): wait for it, or run \`photowire clusters rebuild\` again`,
        );
      }
      if (stored === null && legacy !== null) {
        throw new PhotowireError(
          'CONFIG_INVALID',
          `this Redis holds the old threshold caption index (${this.legacyPointer} names ${legacy}) and no caption-cluster index: run \`photowire clusters rebuild\` to build ${this.keys.base} from the catalog (it deletes the old index)`,
        );
      }
      if (stored === null) await this.redis.set(this.keys.meta, this.fingerprint, 'NX');
      const now = stored ?? (await this.redis.get(this.keys.meta));
      if (now !== this.fingerprint) {
        throw new PhotowireError(
          'CONFIG_INVALID',
          `the caption-cluster index at ${this.keys.base} was built with other parameters (${now ?? 'none'}; this build uses ${this.fingerprint}): run \`photowire clusters rebuild\``,
        );
      }
    })().catch((err: unknown) => {
      this.opened = null;
      throw err;
    });
    return this.opened;
  }

  /** Runs fn holding the index's batch lock, renewed while it runs. */
  async withBatchLock<T>(
    owner: string,
    fn: () => Promise<T>,
    opts: { ttlMs?: number; waitMs?: number } = {},
  ): Promise<T> {
    await this.open();
    return this.holdLock(owner, fn, opts);
  }

  private async holdLock<T>(
    owner: string,
    fn: () => Promise<T>,
    opts: { ttlMs?: number; waitMs?: number },
  ): Promise<T> {
    const ttlMs = opts.ttlMs ?? 30_000;
    const deadline = Date.now() + (opts.waitMs ?? 10 * 60_000);
    const token = `${owner} ${os.hostname()} ${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
    while ((await this.redis.set(this.keys.lock, token, 'PX', ttlMs, 'NX')) !== 'OK') {
      if (Date.now() > deadline)
        throw new Error(
          `caption-cluster index: ${owner} waited for the batch lock held by "${await this.redis.get(this.keys.lock)}"`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
    const timer = setInterval(
      () => void runScript(this.redis, RENEW, [this.keys.lock], [token, ttlMs]).catch(() => undefined),
      Math.max(50, Math.floor(ttlMs / 3)),
    );
    timer.unref?.();
    try {
      return await fn();
    } finally {
      clearInterval(timer);
      await runScript(this.redis, RELEASE, [this.keys.lock], [token]);
    }
  }

  /**
   * Decides the items in the order given (call it under withBatchLock when several processes
   * assign). Idempotent per item id: a known item gets its first answer again (its diff and why
   * recomputed against the canonical), a caption with no subject words gets null.
   */
  async assignMany(
    items: ReadonlyArray<{ itemId: string; caption: string }>,
    outcomes?: AssignOutcomes,
  ): Promise<Array<SubjectRef | null>> {
    await this.open();
    return this.assignOpen(items, outcomes);
  }

  private async assignOpen(
    items: ReadonlyArray<{ itemId: string; caption: string }>,
    outcomes?: AssignOutcomes,
  ): Promise<Array<SubjectRef | null>> {
    if (items.length === 0) return [];
    const reads = items.map((it) => readCaption(it.caption));
    const fields = reads.map((r) => (r === null ? [] : r.key.keys.map(bucketField)));
    const p = this.redis.pipeline();
    for (const it of items) p.hget(this.keys.items(itemShard(it.itemId)), it.itemId);
    const bucketReads: BucketField[] = [];
    const seen = new Set<string>();
    for (const fs of fields) {
      for (const f of fs) {
        if (seen.has(f.at)) continue;
        seen.add(f.at);
        bucketReads.push(f);
        p.hget(this.keys.bucket(f.shard), f.field);
      }
    }
    p.get(this.keys.generation);
    const res = await p.exec();
    if (res === null) throw new Error('caption-cluster index: pipeline aborted');
    for (const [err] of res) if (err) throw err;
    // Another process removed clusters (retention, a rebuild): an id may now name another canonical.
    const generation = res[res.length - 1][1] as string | null;
    if (generation !== this.cacheGeneration) {
      this.cache.clear();
      this.cacheGeneration = generation;
    }
    const known = items.map((_it, i) => res[i][1] as string | null);
    const stored = new Map<string, string>();
    bucketReads.forEach((f, j) => {
      const v = res[items.length + j][1] as string | null;
      if (v !== null) stored.set(f.at, v);
    });
    // Each caption's candidates in the stored buckets: only the entries whose signature allows the
    // rule (at most MAX_SUBSTITUTIONS other words) are read and compared, so the canonicals loaded
    // stay few however large a bucket grows (docs/DEDUP.md "Measured").
    const storedCandidates = fields.map((fs) => {
      const ids = new Set<string>();
      for (const f of fs) {
        const v = stored.get(f.at);
        if (v !== undefined) matchBucket(v, f.sig, ids);
      }
      return ids;
    });
    // Every candidate of this call, held here (the cache is only a saving: it may drop entries).
    const wanted = new Set<string>();
    for (const ids of storedCandidates) for (const id of ids) wanted.add(id);
    for (const k of known) if (k !== null) wanted.add(k.split('|')[0]);
    const local = await this.load([...wanted]);

    const writes = this.redis.pipeline();
    /** The entries each bucket field gets in this call (appended in Redis: the stored value is never sent back). */
    const bucketWrites = new Map<string, BucketWrite>();
    const touched = new Set<string>();
    const out: Array<SubjectRef | null> = [];
    /** Item ids given more than once in this call, and where. */
    const repeats = new Map<string, number[]>();
    {
      const first = new Map<string, number>();
      items.forEach((it, i) => {
        const at = first.get(it.itemId);
        if (at === undefined) first.set(it.itemId, i);
        else repeats.set(it.itemId, [...(repeats.get(it.itemId) ?? [at]), i]);
      });
    }
    for (let i = 0; i < items.length; i++) {
      const read = reads[i];
      const { itemId } = items[i];
      if (known[i] !== null) {
        if (outcomes) outcomes.known++;
        out.push(knownRef(local, known[i]!, read));
        continue;
      }
      if (read === null) {
        out.push(null);
        continue;
      }
      // The same head as a canonical (a resend whose subject is unchanged): the only cluster at cost 0
      // (a caption with that head always joined it), so the brute force's choice without scoring every
      // candidate of the buckets.
      const same = local.get(read.key.id);
      const sameMatch = same === undefined ? null : compareSubjects(same.key, read.key);
      let best: { c: StoredCluster; match: SubjectMatch } | null = null;
      if (same !== undefined && sameMatch !== null && sameMatch.same && sameMatch.cost === 0)
        best = { c: same, match: sameMatch };
      else {
        const candidates = new Set(storedCandidates[i]);
        // Clusters this call created are not in the stored values: their entries are checked here.
        for (const f of fields[i])
          for (const e of bucketWrites.get(f.at)?.added ?? [])
            if (signatureDistance(e.sig, f.sig) <= MAX_SUBSTITUTIONS) candidates.add(e.id);
        const scored: Array<{ clusterId: string; c: StoredCluster; match: SubjectMatch }> = [];
        for (const id of candidates) {
          const c = local.get(id);
          if (c !== undefined) scored.push({ clusterId: id, c, match: compareSubjects(c.key, read.key) });
        }
        best = pickSubjectCluster(scored);
      }
      let ref: SubjectRef;
      if (best !== null) {
        ref = memberRef(best.c.id, best.c.canonicalId, readOf(best.c), read, best.match);
        writes.rpush(this.keys.members(best.c.id), itemId);
        writes.zincrby(this.keys.sizes, 1, best.c.id);
        if (outcomes) outcomes.joined++;
      } else {
        // The head's id is taken only after a 64-bit clash (the same head would have joined it).
        const id = local.has(read.key.id) ? `${read.key.id.slice(0, 15)}x` : read.key.id;
        const c: StoredCluster = { id, canonicalId: itemId, caption: items[i].caption, key: read.key, read };
        local.set(id, c);
        this.remember(c);
        // The caption as given: read again, it gives this very head (normalising twice might not).
        writes.set(this.keys.cluster(id), JSON.stringify([itemId, items[i].caption, read.key.tokens.join(' ')]));
        // The later captions of this call see the new cluster as a candidate (bucketWrites).
        for (const f of fields[i]) {
          const w = bucketWrites.get(f.at);
          if (w === undefined) bucketWrites.set(f.at, { shard: f.shard, field: f.field, added: [{ id, sig: f.sig }] });
          else w.added.push({ id, sig: f.sig });
        }
        ref = { id, canonicalId: itemId, similarity: 1, exact: true };
        if (outcomes) outcomes.created++;
      }
      touched.add(ref.id);
      const membership = `${ref.id}|${ref.exact ? 1 : 0}|${ref.similarity}`;
      writes.hset(this.keys.items(itemShard(itemId)), itemId, membership);
      // A later item of this call with the same id is known now.
      known[i] = null;
      out.push(ref);
      for (const j of repeats.get(itemId) ?? []) if (j > i) known[j] = membership;
    }
    // Buckets first: a bucket naming a cluster whose `c:` a crash left unwritten is skipped by load(),
    // a cluster written but in no bucket would never be found again.
    if (bucketWrites.size > 0) {
      // A field this call read as absent is set with HSETNX, no script (most of them: 75-80% at
      // 100k-300k captions, docs/DEDUP.md "Measured"); the others, and a new one another writer set
      // meanwhile (HSETNX answers 0), get the append script, so no entry is ever overwritten.
      const fresh: BucketWrite[] = [];
      const grown: BucketWrite[] = [];
      for (const [at, w] of bucketWrites) (stored.has(at) ? grown : fresh).push(w);
      const p = this.redis.pipeline();
      for (const w of fresh) p.hsetnx(this.keys.bucket(w.shard), w.field, bucketValue(w));
      const [set] = await Promise.all([execAll(p), this.appendBuckets(grown)]);
      await this.appendBuckets(fresh.filter((_w, k) => set[k] === 0));
    }
    const at = lastSeenNow(this.clock());
    for (const id of touched) writes.zadd(this.keys.seen(seenShard(id)), at, id);
    const wres = await writes.exec();
    if (wres !== null) for (const [err] of wres) if (err) throw err;
    return out;
  }

  /** Appends entries to bucket fields in Redis (`appendBuckets.lua`): the stored value is never sent back. */
  private async appendBuckets(ws: readonly BucketWrite[]): Promise<void> {
    if (ws.length === 0) return;
    const keyAt = new Map<number, number>();
    const keys: string[] = [];
    const args: Array<string | number> = [];
    for (const w of ws) {
      let at = keyAt.get(w.shard);
      if (at === undefined) {
        keys.push(this.keys.bucket(w.shard));
        at = keys.length;
        keyAt.set(w.shard, at);
      }
      args.push(at, w.field, bucketValue(w));
    }
    await runScript(this.redis, APPEND_BUCKETS, keys, args);
  }

  /** A cluster with its canonical caption and members (the canonical first), or null. */
  async getCluster(id: string): Promise<ClusterInfo | null> {
    if (!CLUSTER_ID.test(id)) return null;
    await this.open();
    const [head, rest] = await Promise.all([
      this.redis.get(this.keys.cluster(id)),
      this.redis.lrange(this.keys.members(id), 0, -1),
    ]);
    if (head === null) return null;
    const [canonicalId, caption] = JSON.parse(head) as [string, string];
    const members: ClusterMember[] = [{ itemId: canonicalId, similarity: 1, exact: true }];
    if (rest.length > 0) {
      const p = this.redis.pipeline();
      for (const itemId of rest) p.hget(this.keys.items(itemShard(itemId)), itemId);
      const res = (await p.exec()) ?? [];
      rest.forEach((itemId, i) => {
        const [err, value] = res[i] as [Error | null, string | null];
        if (err) throw err;
        const [, exact, similarity] = (value ?? `${id}|0|0`).split('|');
        members.push({ itemId, similarity: Number(similarity), exact: exact === '1' });
      });
    }
    return { id, canonicalId, canonicalCaption: caption, size: members.length, members };
  }

  /**
   * Clusters, largest first (then by id). With itemIds: the clusters those items belong to (whole
   * clusters, members from other batches included). Without: clusters of at least minSize (default
   * 1); minSize >= 2 reads the size index (`sizes`), minSize 1 scans every cluster key, which is
   * slow on a large index: pass limit.
   */
  async listClusters(opts: { minSize?: number; itemIds?: string[]; limit?: number } = {}): Promise<ClusterInfo[]> {
    const minSize = opts.minSize ?? 1;
    await this.open();
    let ids: string[];
    if (opts.itemIds) ids = await this.clusterIdsOf(opts.itemIds);
    else if (minSize >= 2) ids = await this.redis.zrangebyscore(this.keys.sizes, minSize - 1, '+inf');
    else ids = await this.scanClusterIds();
    const out: ClusterInfo[] = [];
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const infos = await Promise.all(ids.slice(i, i + READ_CHUNK).map((id) => this.getCluster(id)));
      for (const c of infos) if (c !== null && c.size >= minSize) out.push(c);
    }
    out.sort((a, b) => b.size - a.size || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return opts.limit !== undefined ? out.slice(0, opts.limit) : out;
  }

  /** The distinct clusters of these items (items not in the index are left out). */
  private async clusterIdsOf(itemIds: readonly string[]): Promise<string[]> {
    const ids = new Set<string>();
    for (let i = 0; i < itemIds.length; i += READ_CHUNK) {
      const p = this.redis.pipeline();
      for (const itemId of itemIds.slice(i, i + READ_CHUNK)) p.hget(this.keys.items(itemShard(itemId)), itemId);
      for (const [err, v] of (await p.exec()) ?? []) {
        if (err) throw err;
        if (typeof v === 'string') ids.add(v.split('|')[0]);
      }
    }
    return [...ids];
  }

  private async scanClusterIds(): Promise<string[]> {
    const prefix = this.keys.cluster('');
    return (await scanKeys(this.redis, keysStartingWith(prefix))).map((k) => k.slice(prefix.length));
  }

  /**
   * Retention (PHOTOWIRE_DEDUP_RETENTION_DAYS): removes the clusters not seen (created or joined)
   * within `retentionDays` of `now`: each one's canonical `c:`, member list, size and last-seen
   * entries, its id from the buckets of its head's segment keys (computed again from the stored
   * head tokens) and its members' memberships. A later resend of such a caption starts a new
   * cluster. Runs under the batch lock, so no assignment sees half a cluster. Resumable: at most
   * `maxClusters` (default 10,000) per call, the walk over the 2^12 last-seen shards keeps its
   * place at `expiry` (`done` says it reached the end). Idempotent: what is removed is gone.
   */
  async expireIdle(opts: {
    now?: Date;
    retentionDays: number;
    dryRun?: boolean;
    maxClusters?: number;
  }): Promise<CaptionExpiryReport> {
    if (!(opts.retentionDays > 0)) throw new RangeError(`dedup retention days must be > 0, got ${opts.retentionDays}`);
    const nowMs = opts.now ? opts.now.getTime() : this.clock();
    const cutoff = Math.floor(nowMs / 1000) - Math.round(opts.retentionDays * 86_400);
    const dryRun = opts.dryRun ?? false;
    const maxClusters = opts.maxClusters ?? 10_000;
    const report: CaptionExpiryReport = {
      cutoff: new Date(cutoff * 1000).toISOString(),
      dryRun,
      clustersRemoved: 0,
      bucketEntriesRemoved: 0,
      membershipsRemoved: 0,
      done: false,
    };
    if (dryRun) {
      await this.open();
      for (let k = 0; k < SEEN_SHARDS; k += EXPIRY_SHARDS_PER_READ) {
        const p = this.redis.pipeline();
        for (let j = k; j < Math.min(SEEN_SHARDS, k + EXPIRY_SHARDS_PER_READ); j++)
          p.zcount(this.keys.seen(j), '-inf', `(${cutoff}`);
        for (const [err, n] of (await p.exec()) ?? []) {
          if (err) throw err;
          report.clustersRemoved += n as number;
        }
      }
      report.done = true;
      return report;
    }
    return this.withBatchLock('retention', async () => {
      let shard = Number((await this.redis.get(this.keys.expiry)) ?? 0);
      if (!(Number.isInteger(shard) && shard >= 0 && shard < SEEN_SHARDS)) shard = 0;
      walk: while (shard < SEEN_SHARDS) {
        const end = Math.min(SEEN_SHARDS, shard + EXPIRY_SHARDS_PER_READ);
        const p = this.redis.pipeline();
        for (let j = shard; j < end; j++)
          p.zrangebyscore(this.keys.seen(j), '-inf', `(${cutoff}`, 'LIMIT', 0, maxClusters - report.clustersRemoved);
        const replies = (await p.exec()) ?? [];
        for (let j = shard; j < end; j++) {
          const [err, ids] = replies[j - shard] as [Error | null, string[]];
          if (err) throw err;
          for (const id of ids) {
            if (report.clustersRemoved >= maxClusters) break;
            const r = await this.removeCluster(id, this.keys.seen(j));
            report.clustersRemoved++;
            report.bucketEntriesRemoved += r.entries;
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
      if (report.clustersRemoved > 0) await this.newGeneration();
      if (report.done) await this.redis.del(this.keys.expiry);
      else await this.redis.set(this.keys.expiry, String(shard));
      return report;
    });
  }

  /** One cluster out of the index (under the batch lock). */
  private async removeCluster(id: string, seenKey: string): Promise<{ entries: number; memberships: number }> {
    const out = { entries: 0, memberships: 0 };
    const [head, members] = await Promise.all([
      this.redis.get(this.keys.cluster(id)),
      this.redis.lrange(this.keys.members(id), 0, -1),
    ]);
    const items = [...members];
    if (head !== null) {
      const [canonicalId, , tokens] = JSON.parse(head) as [string, string, string];
      items.unshift(canonicalId);
      const key = subjectKeyOfTokens(tokens.split(' '));
      const fields = key === null ? [] : key.keys.map(bucketField);
      const p = this.redis.pipeline();
      for (const f of fields) p.hget(this.keys.bucket(f.shard), f.field);
      const res = (await p.exec()) ?? [];
      const w = this.redis.pipeline();
      fields.forEach((f, i) => {
        const [err, v] = res[i] as [Error | null, string | null];
        if (err) throw err;
        if (v === null) return;
        const left = withoutCluster(v, id);
        if (left.removed === 0) return;
        out.entries += left.removed;
        if (left.value === '') w.hdel(this.keys.bucket(f.shard), f.field);
        else w.hset(this.keys.bucket(f.shard), f.field, left.value);
      });
      await execAll(w);
    }
    for (let i = 0; i < items.length; i += READ_CHUNK) {
      const w = this.redis.pipeline();
      for (const itemId of items.slice(i, i + READ_CHUNK)) w.hdel(this.keys.items(itemShard(itemId)), itemId);
      for (const n of await execAll(w)) out.memberships += n as number;
    }
    const w = this.redis.pipeline();
    w.unlink(this.keys.cluster(id), this.keys.members(id));
    w.zrem(this.keys.sizes, id);
    w.zrem(seenKey, id);
    await execAll(w);
    this.cache.delete(id);
    return out;
  }

  /**
   * `photowire clusters rebuild`'s fill, under the batch lock: deletes every key of the index but
   * the lock, marks it `rebuilding` (every other process refuses it meanwhile), lets `fill` assign
   * the catalog's captions, then writes the fingerprint and clears the mark. A rebuild that stops
   * half way leaves the mark: the index stays refused until a rebuild runs to its end.
   */
  async rebuild<T>(
    owner: string,
    fill: (
      assign: (
        items: ReadonlyArray<{ itemId: string; caption: string }>,
        outcomes?: AssignOutcomes,
      ) => Promise<Array<SubjectRef | null>>,
    ) => Promise<T>,
  ): Promise<T> {
    return this.holdLock(
      owner,
      async () => {
        await this.deleteKeys((k) => k !== this.keys.lock);
        await this.redis.set(
          this.keys.rebuilding,
          `${owner} ${os.hostname()} ${process.pid} since ${new Date(this.clock()).toISOString()}`,
        );
        await this.newGeneration();
        const out = await fill((items, outcomes) => this.assignOpen(items, outcomes));
        await this.redis.set(this.keys.meta, this.fingerprint);
        await this.redis.del(this.keys.rebuilding);
        this.opened = null;
        return out;
      },
      { waitMs: 10 * 60_000 },
    );
  }

  /** Tells every process's cache that clusters were removed (a random token: a count would start again after a rebuild). */
  private async newGeneration(): Promise<void> {
    await this.redis.set(this.keys.generation, randomBytes(8).toString('hex'));
  }

  private async load(ids: string[]): Promise<Map<string, StoredCluster>> {
    const local = new Map<string, StoredCluster>();
    const missing: string[] = [];
    for (const id of ids) {
      const c = this.cache.get(id);
      if (c === undefined) missing.push(id);
      else local.set(id, c);
    }
    if (missing.length === 0) return local;
    const heads = await this.redis.mget(missing.map((id) => this.keys.cluster(id)));
    missing.forEach((id, i) => {
      const h = heads[i];
      if (h === null) return;
      const [canonicalId, caption, tokens] = JSON.parse(h) as [string, string, string];
      const key = subjectHeadOfTokens(tokens.split(' '));
      if (key === null) return;
      const c: StoredCluster = { id, canonicalId, caption, key };
      local.set(id, c);
      this.remember(c);
    });
    return local;
  }

  private remember(c: StoredCluster): void {
    if (this.cache.size >= CACHE_MAX) {
      // The oldest quarter at once: deleting one entry at a time from the front left V8's map to skip
      // its deleted slots on every keys().next() (1.8% of Node's time at 300k captions, profiled).
      let drop = CACHE_MAX / 4;
      for (const id of this.cache.keys()) {
        this.cache.delete(id);
        if (--drop === 0) break;
      }
    }
    this.cache.set(c.id, c);
  }

  private async deleteKeys(keep: (key: string) => boolean): Promise<number> {
    const n = await deleteMatching(this.redis, keysStartingWith(this.keys.base), keep);
    this.cache.clear();
    this.opened = null;
    return n;
  }

  /** Deletes every key of the index (tests, benchmarks). */
  deleteAll(): Promise<number> {
    return this.deleteKeys(() => true);
  }
}

async function execAll(p: ReturnType<Redis['pipeline']>): Promise<unknown[]> {
  if (p.length === 0) return [];
  const res = await p.exec();
  if (res === null) throw new Error('caption-cluster index: pipeline aborted');
  return res.map(([err, v]) => {
    if (err) throw err;
    return v;
  });
}
