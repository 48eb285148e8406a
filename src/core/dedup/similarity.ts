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
