/** Size of the intersection of two sorted, duplicate-free arrays (linear merge). */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/**
 * Exact Jaccard similarity of two shingle sets. Two empty sets have similarity 0: an empty
 * caption is never "the same" as anything (it gets no cluster at all).
 */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  const inter = intersectionSize(a, b);
  const union = a.length + b.length - inter;
  return union === 0 ? 0 : inter / union;
}

/** Counts for one comparison of a caption with a cluster (sizes of sorted, unique shingle sets). */
export interface ClusterOverlap {
  /** |caption ∩ canonical| */
  inter: number;
  /** |caption ∩ (canonical ∪ extra shingles of the members)|, >= inter */
  interAll: number;
  /** |canonical| */
  canonical: number;
  /** |caption| */
  caption: number;
}

/**
 * Caption similarity with a cluster (issue 12): the higher of
 * - Jaccard with the canonical caption, inter / (canonical + caption - inter), and
 * - containment less CONTAINMENT_DISCOUNT: the share of the caption the cluster already has
 *   (interAll / caption: a truncated or shortened resend) or the share of the canonical caption
 *   the new one has (inter / canonical: the canonical plus an appended sentence), when both have
 *   at least MIN_CONTAINED_SHINGLES shingles.
 * The Redis script must compute exactly this, in this order of operations.
 */
export function captionSimilarity(o: ClusterOverlap, discount: number, minContained: number): number {
  const union = o.canonical + o.caption - o.inter;
  const j = union === 0 ? 0 : o.inter / union;
  if (o.canonical < minContained || o.caption < minContained) return j;
  const c = Math.max(o.interAll / o.caption, o.inter / o.canonical) - discount;
  return c > j ? c : j;
}
