import { chunkRangeOf, planItemJobs } from '../../../src/core/itemChunks';

describe('planItemJobs', () => {
  const items = [
    { image: null },
    { image: 'a.jpg' },
    { image: null },
    { image: null },
    { image: 'https://x/b.jpg' },
    { image: null },
    { image: null },
  ];

  it('photos one job each; caption-only items in chunks of batch-index ranges, named by the range', () => {
    expect(planItemJobs(items, 3)).toEqual({
      single: [1, 4],
      chunks: [
        { from: 0, to: 3, indexes: [0, 2] },
        { from: 3, to: 6, indexes: [3, 5] },
        { from: 6, to: 7, indexes: [6] },
      ],
    });
    // every index once
    const plan = planItemJobs(items, 3);
    expect([...plan.single, ...plan.chunks.flatMap((c) => c.indexes)].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('size 1: one job per item, as before chunks', () => {
    expect(planItemJobs(items, 1)).toEqual({ single: [0, 1, 2, 3, 4, 5, 6], chunks: [] });
  });

  it('the chunk of an index is found from the index, the size and the batch size alone', () => {
    for (const c of planItemJobs(items, 3).chunks)
      for (const i of c.indexes) expect(chunkRangeOf(i, 3, items.length)).toEqual({ from: c.from, to: c.to });
  });
});
