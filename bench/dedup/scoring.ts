/**
 * Clustering scores. Both take two labelings of the same items (item -> cluster key) and treat
 * `reference` as the truth.
 * - B-cubed: per item, precision = share of its predicted cluster that is in its reference
 *   cluster, recall = share of its reference cluster that is in its predicted cluster; averaged.
 * - Pairwise: over all pairs of items, precision/recall of "same cluster".
 */
export interface Scores {
  items: number;
  bcubedPrecision: number;
  bcubedRecall: number;
  bcubedF1: number;
  pairwisePrecision: number;
  pairwiseRecall: number;
  /** Pairs together in the reference / in the prediction / in both. */
  referencePairs: number;
  predictedPairs: number;
  sharedPairs: number;
}

export function scoreClustering(
  predicted: ReadonlyMap<string, string>,
  reference: ReadonlyMap<string, string>,
): Scores {
  if (predicted.size !== reference.size) {
    throw new Error(`scoreClustering: ${predicted.size} predicted items but ${reference.size} reference items`);
  }
  const predSize = new Map<string, number>();
  const refSize = new Map<string, number>();
  const cell = new Map<string, number>();
  for (const [item, ref] of reference) {
    const pred = predicted.get(item);
    if (pred === undefined) throw new Error(`scoreClustering: item ${item} has no predicted cluster`);
    predSize.set(pred, (predSize.get(pred) ?? 0) + 1);
    refSize.set(ref, (refSize.get(ref) ?? 0) + 1);
    const key = `${pred}\u0000${ref}`;
    cell.set(key, (cell.get(key) ?? 0) + 1);
  }
  let p = 0;
  let r = 0;
  for (const [item, ref] of reference) {
    const pred = predicted.get(item)!;
    const both = cell.get(`${pred}\u0000${ref}`)!;
    p += both / predSize.get(pred)!;
    r += both / refSize.get(ref)!;
  }
  const n = reference.size;
  const pairs = (k: number) => (k * (k - 1)) / 2;
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, k) => a + pairs(k), 0);
  const referencePairs = sum(refSize);
  const predictedPairs = sum(predSize);
  const sharedPairs = sum(cell);
  const bp = n === 0 ? 1 : p / n;
  const br = n === 0 ? 1 : r / n;
  return {
    items: n,
    bcubedPrecision: bp,
    bcubedRecall: br,
    bcubedF1: bp + br === 0 ? 0 : (2 * bp * br) / (bp + br),
    pairwisePrecision: predictedPairs === 0 ? 1 : sharedPairs / predictedPairs,
    pairwiseRecall: referencePairs === 0 ? 1 : sharedPairs / referencePairs,
    referencePairs,
    predictedPairs,
    sharedPairs,
  };
}

/** Two partitions are the same when they group the same items, whatever the cluster keys are. */
export function samePartition(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  const s = scoreClustering(a, b);
  return s.sharedPairs === s.referencePairs && s.sharedPairs === s.predictedPairs;
}
