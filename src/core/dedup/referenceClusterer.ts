import type { ClusterRef } from '../../schemas/record';
import { signCaption, type CaptionSignature } from './signature';
import { intersectionSize } from './similarity';

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

interface RefCluster {
  id: string;
  canonicalId: string;
  shingles: Uint32Array;
  members: string[];
}

/**
 * Brute-force clustering with exactly the index's semantics: every caption is compared with every
 * canonical caption, no LSH. The bench scores the Redis index against it; tests use it to state
 * what the seed's partition is.
 */
export class ReferenceClusterer {
  private readonly clusters = new Map<string, RefCluster>();
  private readonly byItem = new Map<string, ClusterRef | null>();

  constructor(readonly threshold: number) {}

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
    const scored: Scored[] = [];
    for (const c of this.clusters.values()) {
      const inter = intersectionSize(c.shingles, sig.shingles);
      scored.push({ clusterId: c.id, inter, union: c.shingles.length + sig.shingles.length - inter });
    }
    const best = pickCluster(scored, this.threshold);
    if (best !== null) {
      const c = this.clusters.get(best.clusterId)!;
      c.members.push(itemId);
      return { id: c.id, canonicalId: c.canonicalId, similarity: best.inter / best.union, exact: false };
    }
    const id = this.clusters.has(sig.clusterId) ? sig.altClusterId : sig.clusterId;
    this.clusters.set(id, { id, canonicalId: itemId, shingles: sig.shingles, members: [itemId] });
    return { id, canonicalId: itemId, similarity: 1, exact: true };
  }

  /** The partition so far: cluster id -> member item ids in arrival order. */
  partition(): Map<string, string[]> {
    return new Map([...this.clusters.values()].map((c) => [c.id, [...c.members]]));
  }
}
