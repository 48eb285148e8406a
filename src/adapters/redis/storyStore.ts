import type { Redis } from 'ioredis';
import {
  betterVia,
  storyBands,
  storyIdFor,
  storyLink,
  type StoryEvidence,
  type StoryVia,
} from '../../core/dedup/story';
import type { StoryKeys } from './keys';

/** What a record carries of its story (record.story). */
export interface StoryRef {
  id: string;
  /** Members when the record's story was decided or, served through the API, when it was read. */
  size: number;
  /** Why this member is in the story; null for the member that founded it. */
  via: StoryVia | null;
}

export interface StoryInfo {
  id: string;
  size: number;
  /** In the order they joined (merged stories: each member keeps its own join turn). */
  members: Array<{ itemId: string; via: StoryVia | null }>;
}

interface StoredMember {
  /** The story it joined (a root then; maybe merged into another since). */
  s: string;
  e: StoryEvidence;
  v: StoryVia | null;
}

/**
 * Most item ids a candidate bucket remembers (the newest). A story is single-link: one member of
 * a story in the bucket finds it, so a bucket holds the last few captions of each assignment
 * whose background hashes there. Measured against the brute-force oracle in
 * test/integration/storyStore.test.ts and docs/DEDUP.md ("Stories").
 */
export const STORY_BUCKET_CAPACITY = 16;
/** Most parent hops followed (merges compress the path of what they touch, so chains stay short). */
const MAX_HOPS = 64;

/**
 * The stories, in Redis under `{<p>:story}` (keys.ts `StoryKeys`): every member's
 * evidence and the link that brought it in, a union-find parent per merged story, each root's
 * size and members, and candidate buckets (core/dedup/story.ts `storyBands`).
 *
 * `assignMany` reads and writes in several steps, so it must run where nothing else assigns at the
 * same time: clusterBatch calls it inside the caption index's batch lock (one finalize at a time,
 * across machines). Reads (`resolve`, `getStory`) are safe at any time.
 */
export class StoryStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StoryKeys,
  ) {}

  /**
   * Each caption's story, in order (null for a caption without evidence). A caption that links
   * to members of several stories merges them (the story with the smallest id survives), so the
   * partition does not depend on arrival order. An item seen before gets its stored answer.
   */
  async assignMany(
    items: ReadonlyArray<{ itemId: string; evidence: StoryEvidence | null }>,
  ): Promise<Array<StoryRef | null>> {
    const out: Array<StoryRef | null> = [];
    for (const it of items) out.push(it.evidence ? await this.assignOne(it.itemId, it.evidence) : null);
    return out;
  }

  private async assignOne(itemId: string, evidence: StoryEvidence): Promise<StoryRef> {
    const known = await this.redis.hget(this.keys.items, itemId);
    if (known !== null) {
      const m = JSON.parse(known) as StoredMember;
      const root = await this.root(m.s);
      return { id: root, size: await this.size(root), via: m.v };
    }
    const bands = storyBands(evidence);
    const pipe = this.redis.pipeline();
    for (const b of bands) pipe.lrange(this.keys.bucket(b), 0, -1);
    const lists = ((await pipe.exec()) ?? []).map(([err, v]) => {
      if (err) throw err;
      return v as string[];
    });
    const candidates = [...new Set(lists.flat())].filter((id) => id !== itemId);
    let via: StoryVia | null = null;
    const linkedStories = new Set<string>();
    if (candidates.length > 0) {
      const stored = await this.redis.hmget(this.keys.items, ...candidates);
      stored.forEach((text, i) => {
        if (text === null) return;
        const m = JSON.parse(text) as StoredMember;
        const link = storyLink(evidence, m.e, candidates[i]);
        if (!link) return;
        linkedStories.add(m.s);
        if (!via || betterVia(link, via)) via = link;
      });
    }
    const roots = [...new Set(await Promise.all([...linkedStories].map((s) => this.root(s))))].sort();
    const winner = roots[0] ?? storyIdFor(itemId);
    for (const loser of roots.slice(1)) await this.merge(loser, winner);
    const seq = await this.redis.incr(this.keys.seq);
    const tx = this.redis.multi();
    tx.hset(this.keys.items, itemId, JSON.stringify({ s: winner, e: evidence, v: via } satisfies StoredMember));
    tx.zadd(this.keys.members(winner), seq, itemId);
    tx.hincrby(this.keys.sizes, winner, 1);
    for (const b of bands) {
      tx.lpush(this.keys.bucket(b), itemId);
      tx.ltrim(this.keys.bucket(b), 0, STORY_BUCKET_CAPACITY - 1);
    }
    const res = await tx.exec();
    const size = Number(res?.[2]?.[1] ?? 1);
    return { id: winner, size, via };
  }

  /** Moves `loser`'s members under `winner` (both roots). */
  private async merge(loser: string, winner: string): Promise<void> {
    const loserSize = Number((await this.redis.hget(this.keys.sizes, loser)) ?? 0);
    const tx = this.redis.multi();
    tx.hset(this.keys.parent, loser, winner);
    tx.zunionstore(
      this.keys.members(winner),
      2,
      this.keys.members(winner),
      this.keys.members(loser),
      'AGGREGATE',
      'MIN',
    );
    tx.del(this.keys.members(loser));
    tx.hincrby(this.keys.sizes, winner, loserSize);
    tx.hdel(this.keys.sizes, loser);
    await tx.exec();
  }

  /** The root story of `id` (itself when it was never merged). */
  private async root(id: string): Promise<string> {
    let at = id;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const up = await this.redis.hget(this.keys.parent, at);
      if (up === null) {
        if (at !== id) await this.redis.hset(this.keys.parent, id, at);
        return at;
      }
      at = up;
    }
    throw new Error(`story ${id}: more than ${MAX_HOPS} merges deep`);
  }

  private async size(root: string): Promise<number> {
    return Number((await this.redis.hget(this.keys.sizes, root)) ?? 0);
  }

  /** These story ids as they are now: each one's root and its size (an id never stored maps to null). */
  async resolve(ids: readonly string[]): Promise<Map<string, { id: string; size: number } | null>> {
    const out = new Map<string, { id: string; size: number } | null>();
    for (const id of new Set(ids)) {
      const root = await this.root(id);
      const size = await this.size(root);
      out.set(id, size > 0 ? { id: root, size } : null);
    }
    return out;
  }

  /** A story as it is now, with at most `limit` members (join order) and why each joined; null when unknown. */
  async getStory(storyId: string, limit = 1000): Promise<StoryInfo | null> {
    const root = await this.root(storyId);
    const size = await this.size(root);
    if (size === 0) return null;
    const itemIds = await this.redis.zrange(this.keys.members(root), 0, String(Math.max(0, limit - 1)));
    const stored = itemIds.length > 0 ? await this.redis.hmget(this.keys.items, ...itemIds) : [];
    return {
      id: root,
      size,
      members: itemIds.map((itemId, i) => ({
        itemId,
        via: stored[i] ? (JSON.parse(stored[i]!) as StoredMember).v : null,
      })),
    };
  }
}
