import type { ClusterRef } from '../../schemas/record';
import { signCaption, type CaptionSignature } from './signature';
import { CONTAINMENT_DISCOUNT, MAX_EXTRA_SHINGLES, MIN_CONTAINED_SHINGLES } from './params';
import { captionSimilarity, intersectionSize } from './similarity';

/** A verified comparison of a caption with one cluster's canonical caption. */
export interface Scored {
  clusterId: string;
  inter: number;
  union: number;
}

/**
 * The join rule, shared by the Redis script (which re-implements it in Lua) and the brute-force
 * reference: an exact duplicate of a canonical caption joins that cluster; otherwise the most
 * similar canonical at or above the threshold wins, ties going to the smallest cluster id so the
 * choice never depends on the order candidates were found in.
 */
export function pickCluster(scored: readonly Scored[], threshold: number): Scored | null {
  let best: Scored | null = null;
  for (const s of scored) {
    if (s.inter / s.union < threshold) continue;
    if (best === null) {
      best = s;
      continue;
    }
    const a = s.inter / s.union;
    const b = best.inter / best.union;
    if (a > b || (a === b && s.clusterId < best.clusterId)) best = s;
  }
  return best;
}

/** The caption-similarity rule: the most similar cluster at or above the threshold, ties to the smallest id. */
export function pickBySimilarity<T extends { clusterId: string; similarity: number }>(scored: readonly T[], threshold: number): T | null {
  let best: T | null = null;
  for (const s of scored) {
    if (s.similarity < threshold) continue;
    if (best === null || s.similarity > best.similarity || (s.similarity === best.similarity && s.clusterId < best.clusterId)) best = s;
  }
  return best;
}

export interface ReferenceOptions {
  /**
   * 'caption' (default): captionSimilarity() with the members' extra shingles, issue 12's meaning.
   * 'jaccard': bigram Jaccard with the canonical only, what the Redis index still implements
   * (the bench checks the index against it).
   */
  measure?: 'caption' | 'jaccard';
  discount?: number;
  minContained?: number;
  maxExtra?: number;
}

interface RefCluster {
  id: string;
  canonicalId: string;
  shingles: Uint32Array;
  /** Shingles members added to the canonical's (at most maxExtra, first come first kept). */
  extra: Set<number>;
  members: string[];
}

/**
 * Brute-force clustering, no LSH: every caption is compared with every cluster. With
 * measure 'jaccard' it has exactly the Redis index's semantics and the bench scores the index
 * against it; with 'caption' (the default) it is the oracle of issue 12's meaning, which the
 * labelled set measures (bench/dedup/measure.ts) and the tests use to state the seed's partition.
 */
export class ReferenceClusterer {
  private readonly clusters = new Map<string, RefCluster>();
  private readonly byItem = new Map<string, ClusterRef | null>();
  private readonly opts: Required<ReferenceOptions>;

  constructor(
    readonly threshold: number,
    opts: ReferenceOptions = {},
  ) {
    this.opts = {
      measure: opts.measure ?? 'caption',
      discount: opts.discount ?? CONTAINMENT_DISCOUNT,
      minContained: opts.minContained ?? MIN_CONTAINED_SHINGLES,
      maxExtra: opts.maxExtra ?? MAX_EXTRA_SHINGLES,
    };
  }

  assign(itemId: string, cleanedCaption: string): ClusterRef | null {
    const known = this.byItem.get(itemId);
    if (known !== undefined) return known;
    const sig = signCaption(cleanedCaption);
    const ref = sig === null ? null : this.place(itemId, sig);
    this.byItem.set(itemId, ref);
    return ref;
  }

  private place(itemId: string, sig: CaptionSignature): ClusterRef {
    const exact = this.clusters.get(sig.clusterId);
    const sameSet = (a: Uint32Array) => a.length === sig.shingles.length && intersectionSize(a, sig.shingles) === a.length;
    if (exact !== undefined && sameSet(exact.shingles)) {
      exact.members.push(itemId);
      return { id: exact.id, canonicalId: exact.canonicalId, similarity: 1, exact: true };
    }
    let best: { clusterId: string; similarity: number } | null = null;
    if (this.opts.measure === 'jaccard') {
      const scored: Scored[] = [];
      for (const c of this.clusters.values()) {
        const inter = intersectionSize(c.shingles, sig.shingles);
        scored.push({ clusterId: c.id, inter, union: c.shingles.length + sig.shingles.length - inter });
      }
      const b = pickCluster(scored, this.threshold);
      best = b === null ? null : { clusterId: b.clusterId, similarity: b.inter / b.union };
    } else {
      const scored: Array<{ clusterId: string; similarity: number }> = [];
      for (const c of this.clusters.values()) {
        const inter = intersectionSize(c.shingles, sig.shingles);
        let interAll = inter;
        if (c.extra.size > 0) for (const h of sig.shingles) if (c.extra.has(h)) interAll++;
        const similarity = captionSimilarity({ inter, interAll, canonical: c.shingles.length, caption: sig.shingles.length }, this.opts.discount, this.opts.minContained);
        scored.push({ clusterId: c.id, similarity });
      }
      best = pickBySimilarity(scored, this.threshold);
    }
    if (best !== null) {
      const c = this.clusters.get(best.clusterId)!;
      c.members.push(itemId);
      if (this.opts.measure === 'caption') this.remember(c, sig.shingles);
      return { id: c.id, canonicalId: c.canonicalId, similarity: best.similarity, exact: false };
    }
    const id = this.clusters.has(sig.clusterId) ? sig.altClusterId : sig.clusterId;
    this.clusters.set(id, { id, canonicalId: itemId, shingles: sig.shingles, extra: new Set(), members: [itemId] });
    return { id, canonicalId: itemId, similarity: 1, exact: true };
  }

  /** Keep the member's shingles the canonical lacks, in caption order of hash, up to maxExtra. */
  private remember(c: RefCluster, shingles: Uint32Array): void {
    let i = 0;
    for (const h of shingles) {
      if (c.extra.size >= this.opts.maxExtra) return;
      while (i < c.shingles.length && c.shingles[i] < h) i++;
      if (i < c.shingles.length && c.shingles[i] === h) continue;
      c.extra.add(h);
    }
  }

  /** The partition so far: cluster id -> member item ids in arrival order. */
  partition(): Map<string, string[]> {
    return new Map([...this.clusters.values()].map((c) => [c.id, [...c.members]]));
  }

  /** The canonical caption's item id of a cluster (for diffs against it). */
  canonicalOf(clusterId: string): string | undefined {
    return this.clusters.get(clusterId)?.canonicalId;
  }
}
