/**
 * Scores of a caption clustering on the labelled set of clusterSet.ts: B-cubed overall, per edit
 * kind (the originals that have the edit and their edits of that kind) and per hard-negative kind
 * (the pictures of that kind's sets and all their edits), each on the partition restricted to those
 * captions.
 */
import { EDIT_KINDS, NEGATIVE_KINDS, type ClusterSet, type LabelledCaption } from './clusterSet';
import { samePartition, scoreClustering, type Scores } from './scoring';

export interface KindScore {
  kind: string;
  captions: number;
  precision: number;
  recall: number;
}

export interface ClusterSetScores {
  overall: Scores;
  edits: KindScore[];
  negatives: KindScore[];
  /** Captions whose predicted cluster holds another picture, as "id -> other id" (at most 20). */
  merged: string[];
  /** Edits not in their original's cluster (at most 20). */
  split: string[];
}

function restricted(
  items: readonly LabelledCaption[],
  predicted: ReadonlyMap<string, string>,
  kind: string,
): KindScore {
  const pred = new Map(items.map((c) => [c.id, predicted.get(c.id)!]));
  const ref = new Map(items.map((c) => [c.id, c.picture]));
  const s = scoreClustering(pred, ref);
  return { kind, captions: items.length, precision: s.bcubedPrecision, recall: s.bcubedRecall };
}

/** predicted: caption id -> cluster id. */
export function scoreClusterSet(set: ClusterSet, predicted: ReadonlyMap<string, string>): ClusterSetScores {
  const ref = new Map(set.captions.map((c) => [c.id, c.picture]));
  const overall = scoreClustering(predicted, ref);
  const edits = EDIT_KINDS.map((kind) => {
    const withEdit = new Set(set.captions.filter((c) => c.edit === kind).map((c) => c.original));
    return restricted(
      set.captions.filter((c) => (c.edit === null && withEdit.has(c.id)) || c.edit === kind),
      predicted,
      kind,
    );
  });
  const negatives = NEGATIVE_KINDS.map((kind) => {
    const pics = new Set(set.negatives.filter((n) => n.kind === kind).flatMap((n) => n.pictures));
    return restricted(
      set.captions.filter((c) => pics.has(c.picture)),
      predicted,
      kind,
    );
  });
  const byCluster = new Map<string, LabelledCaption[]>();
  for (const c of set.captions) {
    const k = predicted.get(c.id)!;
    byCluster.set(k, [...(byCluster.get(k) ?? []), c]);
  }
  const merged: string[] = [];
  const split: string[] = [];
  for (const c of set.captions) {
    const other = byCluster.get(predicted.get(c.id)!)!.find((x) => x.picture !== c.picture);
    if (other && merged.length < 20) merged.push(`${c.id} -> ${other.id}`);
    if (c.edit !== null && predicted.get(c.id) !== predicted.get(c.original) && split.length < 20) split.push(c.id);
  }
  return { overall, edits, negatives, merged, split };
}

/** The three arrival orders every measurement uses: the set's order, reversed, and one shuffle (fixed seed). */
export function threeOrders(set: ClusterSet): LabelledCaption[][] {
  const a = set.captions;
  const shuffled = [...a];
  let state = 2027;
  const rnd = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  return [a, [...a].reverse(), shuffled];
}

export { samePartition };
