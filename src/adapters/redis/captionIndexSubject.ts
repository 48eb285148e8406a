import * as os from 'node:os';
import type { Redis } from 'ioredis';
import { PhotowireError } from '../../core/errors';
import { hashString32 } from '../../core/dedup/hash32';
import { memberRef, readCaption, type ReadCaption, type SubjectRef } from '../../core/dedup/subjectClusterer';
import { compareSubjects, pickSubjectCluster, subjectKeyOfTokens, subjectRuleFingerprint, type SubjectKey, type SubjectMatch } from '../../core/dedup/subjectRule';
import { clusterIndexKeys, type ClusterIndexKeys } from './keys';

const ITEM_SHARD_BITS = 16;
const BUCKET_SHARD_BITS = 14;
/** Canonical heads kept in memory (a bounded cache). */
const CACHE_MAX = 20_000;

export interface SubjectIndexOptions {
  /** PHOTOWIRE_PREFIX. */
  prefix: string;
  /** The fingerprint this build writes and expects (tests pass another to play an older build). */
  fingerprint?: string;
}

interface StoredCluster {
  id: string;
  canonicalId: string;
  caption: string;
  /** The canonical head's key, rebuilt from the stored tokens (no caption parsing per candidate). */
  key: SubjectKey;
  /** The canonical caption read, only when a member joins (for its diff and why). */
  read?: ReadCaption;
}

function readOf(c: StoredCluster): ReadCaption {
  c.read ??= readCaption(c.caption)!;
  return c.read;
}

/** 12 hex digits of a segment key, and its bucket shard. */
function bucketField(key: string): { shard: number; field: string } {
  const a = hashString32(key);
  const b = hashString32(key, 0x9e3779b9);
  return { shard: a & ((1 << BUCKET_SHARD_BITS) - 1), field: `${a.toString(16).padStart(8, '0')}${(b >>> 16).toString(16).padStart(4, '0')}` };
}

/** A known item's reference, its diff and why recomputed against the canonical caption. */
function knownRef(local: ReadonlyMap<string, StoredCluster>, stored: string, read: ReadCaption | null): SubjectRef {
  const [id, exact, similarity] = stored.split('|');
  const c = local.get(id);
  if (c === undefined) return { id, canonicalId: '', similarity: Number(similarity), exact: exact === '1' };
  if (exact === '1' || read === null) return { id, canonicalId: c.canonicalId, similarity: Number(similarity), exact: exact === '1' };
  return memberRef(id, c.canonicalId, readOf(c), read, compareSubjects(c.key, read.key));
}

const itemShard = (itemId: string) => hashString32(itemId) & ((1 << ITEM_SHARD_BITS) - 1);

/**
 * The caption-cluster index in Redis (issue 27): the rule of src/core/dedup/subjectRule.ts, exact
 * against the brute force (SubjectClusterer) at the rule's only setting. Each cluster's canonical
 * caption is stored once (`c:<id>`) and listed in the buckets of its head's segment keys
 * (subjectRule.segmentKeys: any two heads the rule joins share one), never dropped from a bucket,
 * so every cluster the rule would join is a candidate; each candidate is verified with the rule
 * itself and the best one joined (fewest changed tokens, ties to the smaller id). Members never
 * extend a cluster, so a late caption never chains two clusters.
 *
 * Decisions run in Node under the index's batch lock (the finalize job holds it for its batch), one
 * pipelined read of memberships and buckets per call, one of the new candidates' canonical
 * captions, and one pipelined write. The fingerprint of the rule is stored at `meta`: an index
 * built with another rule or other parameters is refused at open (`clusters rebuild`).
 */
export class SubjectIndex {
  readonly keys: ClusterIndexKeys;
  private readonly fingerprint: string;
  private opened: Promise<void> | null = null;
  private readonly cache = new Map<string, StoredCluster>();

  constructor(
    private readonly redis: Redis,
    opts: SubjectIndexOptions,
  ) {
    this.keys = clusterIndexKeys(opts.prefix);
    this.fingerprint = opts.fingerprint ?? subjectRuleFingerprint();
  }

  /** Checks (or, for a new index, writes) the fingerprint; an index of other parameters is refused. */
  open(): Promise<void> {
    this.opened ??= (async () => {
      await this.redis.set(this.keys.meta, this.fingerprint, 'NX');
      const stored = await this.redis.get(this.keys.meta);
      if (stored !== this.fingerprint) {
        this.opened = null;
        throw new PhotowireError(
          'CONFIG_INVALID',
          `the caption-cluster index at ${this.keys.base} was built with other parameters (${stored ?? 'none'}; this build uses ${this.fingerprint}): run \`photowire clusters rebuild\``,
        );
      }
    })();
    return this.opened;
  }

  /** Runs fn holding the index's batch lock, renewed while it runs. */
  async withBatchLock<T>(owner: string, fn: () => Promise<T>, opts: { ttlMs?: number; waitMs?: number } = {}): Promise<T> {
    const ttlMs = opts.ttlMs ?? 30_000;
    const deadline = Date.now() + (opts.waitMs ?? 10 * 60_000);
    await this.open();
    const token = `${owner} ${os.hostname()} ${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
    const own = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`;
    while ((await this.redis.set(this.keys.lock, token, 'PX', ttlMs, 'NX')) !== 'OK') {
      if (Date.now() > deadline) throw new Error(`caption-cluster index: ${owner} waited for the batch lock held by "${await this.redis.get(this.keys.lock)}"`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const timer = setInterval(() => void this.redis.eval(own, 1, this.keys.lock, token, String(ttlMs)).catch(() => undefined), Math.max(50, Math.floor(ttlMs / 3)));
    timer.unref?.();
    try {
      return await fn();
    } finally {
      clearInterval(timer);
      await this.redis.eval(own, 1, this.keys.lock, token, '');
    }
  }

  /**
   * Decides the items in the order given (call it under withBatchLock when several processes
   * assign). Idempotent per item id: a known item gets its first answer again (its diff and why
   * recomputed against the canonical), a caption with no subject words gets null.
   */
  async assignMany(items: ReadonlyArray<{ itemId: string; caption: string }>): Promise<Array<SubjectRef | null>> {
    await this.open();
    const reads = items.map((it) => readCaption(it.caption));
    const fields = reads.map((r) => (r === null ? [] : r.key.keys.map(bucketField)));
    const p = this.redis.pipeline();
    for (const it of items) p.hget(this.keys.items(itemShard(it.itemId)), it.itemId);
    const bucketReads: string[] = [];
    const seen = new Set<string>();
    for (const fs of fields) {
      for (const f of fs) {
        const k = `${f.shard}:${f.field}`;
        if (seen.has(k)) continue;
        seen.add(k);
        bucketReads.push(k);
        p.hget(this.keys.bucket(f.shard), f.field);
      }
    }
    const res = await p.exec();
    if (res === null) throw new Error('caption-cluster index: pipeline aborted');
    for (const [err] of res) if (err) throw err;
    const known = items.map((_it, i) => res[i][1] as string | null);
    const buckets = new Map<string, string[]>();
    bucketReads.forEach((k, j) => {
      const v = res[items.length + j][1] as string | null;
      buckets.set(k, v === null ? [] : (v.match(/.{16}/g) ?? []));
    });
    // Every candidate of this call, held here (the cache is only a saving: it may drop entries).
    const wanted = new Set<string>();
    for (const ids of buckets.values()) for (const id of ids) wanted.add(id);
    for (const k of known) if (k !== null) wanted.add(k.split('|')[0]);
    const local = await this.load([...wanted]);

    const writes = this.redis.pipeline();
    const bucketWrites = new Map<string, { shard: number; field: string; ids: string[] }>();
    const out: Array<SubjectRef | null> = [];
    for (let i = 0; i < items.length; i++) {
      const read = reads[i];
      const { itemId } = items[i];
      if (known[i] !== null) {
        out.push(knownRef(local, known[i]!, read));
        continue;
      }
      if (read === null) {
        out.push(null);
        continue;
      }
      const candidates = new Set<string>();
      for (const f of fields[i]) for (const id of buckets.get(`${f.shard}:${f.field}`) ?? []) candidates.add(id);
      const scored: Array<{ clusterId: string; c: StoredCluster; match: SubjectMatch }> = [];
      for (const id of candidates) {
        const c = local.get(id);
        if (c !== undefined) scored.push({ clusterId: id, c, match: compareSubjects(c.key, read.key) });
      }
      const best = pickSubjectCluster(scored);
      let ref: SubjectRef;
      if (best !== null) {
        ref = memberRef(best.c.id, best.c.canonicalId, readOf(best.c), read, best.match);
        writes.rpush(this.keys.members(best.c.id), itemId);
      } else {
        // The head's id is taken only after a 64-bit clash (the same head would have joined it).
        const id = local.has(read.key.id) ? `${read.key.id.slice(0, 15)}x` : read.key.id;
        const c: StoredCluster = { id, canonicalId: itemId, caption: items[i].caption, key: read.key, read };
        local.set(id, c);
        this.remember(c);
        // The caption as given: read again, it gives this very head (normalising twice might not).
        writes.set(this.keys.cluster(id), JSON.stringify([itemId, items[i].caption, read.key.tokens.join(' ')]));
        for (const f of fields[i]) {
          const k = `${f.shard}:${f.field}`;
          const ids = [...(buckets.get(k) ?? []), id];
          buckets.set(k, ids);
          bucketWrites.set(k, { shard: f.shard, field: f.field, ids });
        }
        ref = { id, canonicalId: itemId, similarity: 1, exact: true };
      }
      writes.hset(this.keys.items(itemShard(itemId)), itemId, `${ref.id}|${ref.exact ? 1 : 0}|${ref.similarity}`);
      // A later item of this call with the same id is known now.
      known[i] = null;
      out.push(ref);
      for (let j = i + 1; j < items.length; j++) if (items[j].itemId === itemId) known[j] = `${ref.id}|${ref.exact ? 1 : 0}|${ref.similarity}`;
    }
    for (const w of bucketWrites.values()) writes.hset(this.keys.bucket(w.shard), w.field, w.ids.join(''));
    const wres = await writes.exec();
    if (wres !== null) for (const [err] of wres) if (err) throw err;
    return out;
  }

  /** The members of a cluster (canonical first), or null. */
  async getCluster(id: string): Promise<{ id: string; canonicalId: string; canonicalCaption: string; members: string[] } | null> {
    await this.open();
    const [head, members] = await Promise.all([this.redis.get(this.keys.cluster(id)), this.redis.lrange(this.keys.members(id), 0, -1)]);
    if (head === null) return null;
    const [canonicalId, caption] = JSON.parse(head) as [string, string];
    return { id, canonicalId, canonicalCaption: caption, members: [canonicalId, ...members] };
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
      const key = subjectKeyOfTokens(tokens.split(' '));
      if (key === null) return;
      const c: StoredCluster = { id, canonicalId, caption, key };
      local.set(id, c);
      this.remember(c);
    });
    return local;
  }

  private remember(c: StoredCluster): void {
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(c.id, c);
  }

  /** Deletes every key of the index (tests, benchmarks, a rebuild from scratch). */
  async deleteAll(): Promise<number> {
    let n = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.keys.base}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) n += await this.redis.unlink(...keys);
    } while (cursor !== '0');
    this.cache.clear();
    this.opened = null;
    return n;
  }
}
