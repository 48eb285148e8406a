import type { CatalogRecord } from '../../../src/schemas/record';
import { loadWebModule } from './loadWebModule';
import { cluster, record } from './records';

interface Group {
  kind: 'cluster' | 'single';
  key: string;
  clusterId: string | null;
  lead: CatalogRecord;
  records: CatalogRecord[];
  count: number;
  allExact: boolean;
  failed: number;
  lowConfidence: number;
}
const { groupByCluster, recordStats } = loadWebModule<{
  groupByCluster(r: CatalogRecord[]): Group[];
  recordStats(r: CatalogRecord[]): Record<string, number>;
}>('lib/group.js');

const A = 'aaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccc';

// Items 01, 03 and 07 share a caption (like the seed gallery), 04 and 05 are near-identical,
// 06 joined a cluster whose other members are in another batch, 02 failed.
const batch = [
  record(0, { cluster: cluster(A, 'batch-abc-0001') }),
  record(1, { error: { code: 'IMAGE_CORRUPT', message: 'x.jpg: cut short' } }),
  record(2, { cluster: cluster(A, 'batch-abc-0001') }),
  record(3, { cluster: cluster(B, 'batch-abc-0004') }),
  record(4, { cluster: cluster(B, 'batch-abc-0004', false, 0.91), credit: { confidence: 'low' } }),
  record(5, { cluster: cluster(C, 'other-batch-0001') }),
  record(6, { cluster: cluster(A, 'batch-abc-0001') }),
];

describe('grouping a batch by caption cluster', () => {
  it('puts the members of a cluster in one group, where its first member is', () => {
    const groups = groupByCluster(batch);
    expect(groups.map((g) => [g.kind, g.records.map((r) => r.source.counter)])).toEqual([
      ['cluster', [1, 3, 7]],
      ['single', [2]],
      ['cluster', [4, 5]],
      ['single', [6]],
    ]);
    expect(groups[0]).toMatchObject({ count: 3, clusterId: A, allExact: true, key: `cluster:${A}` });
    expect(groups[2]).toMatchObject({ count: 2, allExact: false, lowConfidence: 1 });
  });

  it('shows a failed item on its own, even with a caption like others', () => {
    const failed = record(1, {
      error: { code: 'IMAGE_CORRUPT', message: 'cut short' },
      cluster: cluster(A, 'batch-abc-0001'),
    });
    const groups = groupByCluster([batch[0], failed, batch[2]]);
    expect(groups.map((g) => [g.kind, g.count])).toEqual([
      ['cluster', 2],
      ['single', 1],
    ]);
    expect(groups[1]).toMatchObject({ failed: 1 });
  });

  it('leads a cluster with its canonical item when the batch has it, else with the first', () => {
    const canonicalSecond = [
      record(0, { cluster: cluster(A, 'batch-abc-0002', true) }),
      record(1, { cluster: cluster(A, 'batch-abc-0002') }),
    ];
    expect(groupByCluster(canonicalSecond)[0].lead.id).toBe('batch-abc-0002');
    const canonicalElsewhere = [
      record(0, { cluster: cluster(A, 'other-0001') }),
      record(1, { cluster: cluster(A, 'other-0001') }),
    ];
    expect(groupByCluster(canonicalElsewhere)[0].lead.id).toBe('batch-abc-0001');
  });

  it('counts what the desk shows above the grid', () => {
    expect(recordStats(batch)).toEqual({
      items: 7,
      photos: 0,
      captionOnly: 6,
      failed: 1,
      lowConfidence: 1,
      clusters: 2,
      duplicates: 3,
    });
    expect(recordStats([])).toMatchObject({ items: 0, clusters: 0, duplicates: 0 });
  });
});
