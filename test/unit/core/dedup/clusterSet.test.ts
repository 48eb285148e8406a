import { buildClusterSet, EDIT_KINDS, NEGATIVE_KINDS } from '../../../../bench/dedup/clusterSet';
import { samePartition, scoreClusterSet, threeOrders } from '../../../../bench/dedup/clusterMeasure';
import { SubjectClusterer } from '../../../../src/core/dedup/subjectClusterer';

jest.setTimeout(120_000);

const set = buildClusterSet();

function cluster(order: typeof set.captions): Map<string, string> {
  const c = new SubjectClusterer();
  return new Map(order.map((x) => [x.id, c.assign(x.id, x.caption)?.id ?? `none:${x.id}`]));
}

describe('the labelled set of caption clusters, brute force', () => {
  const partitions = threeOrders(set).map(cluster);
  const scores = scoreClusterSet(set, partitions[0]);

  it('holds every edit kind the issue names and every hard-negative kind, on real captions', () => {
    for (const kind of EDIT_KINDS)
      expect(set.captions.filter((c) => c.edit === kind).length).toBeGreaterThanOrEqual(13);
    for (const kind of NEGATIVE_KINDS)
      expect(set.negatives.filter((n) => n.kind === kind).length).toBeGreaterThanOrEqual(3);
    expect(set.captions.length).toBeGreaterThan(1500);
  });

  it('reaches B-cubed precision and recall >= 0.98 overall, per edit kind and per hard-negative kind', () => {
    expect(scores.overall.bcubedPrecision).toBeGreaterThanOrEqual(0.98);
    expect(scores.overall.bcubedRecall).toBeGreaterThanOrEqual(0.98);
    for (const k of [...scores.edits, ...scores.negatives]) {
      expect({ kind: k.kind, ok: k.precision >= 0.98 && k.recall >= 0.98 }).toEqual({ kind: k.kind, ok: true });
    }
    // No two pictures share a cluster.
    expect(scores.merged).toEqual([]);
  });

  it('gives one partition in three arrival orders', () => {
    expect(samePartition(partitions[0], partitions[1])).toBe(true);
    expect(samePartition(partitions[0], partitions[2])).toBe(true);
  });
});
