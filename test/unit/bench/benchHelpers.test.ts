import { splitIntoLanes } from '../../../bench/common/inputs';
import { foldStageLines } from '../../../bench/pipeline/stages';
import { fitInside } from '../../../bench/renditions/verify';

const itemDone = (stages: Record<string, number>) =>
  JSON.stringify({ level: 30, queue: 'photowire-item', durationMs: 1, rendered: true, stages, msg: 'item done' });

describe('foldStageLines (per-stage breakdown from the worker log)', () => {
  it('averages each stage over the "item done" lines and gives each stage its share of item time', () => {
    const lines = [
      JSON.stringify({ level: 30, msg: 'feed enqueued', items: 2 }),
      itemDone({ read: 10, metadata: 2, captionCredit: 1, renditions: 80, store: 5, dedup: 1, record: 0, catalog: 1 }),
      'feed-abc: 50% 1/2 3.0/s ETA 1s',
      itemDone({ read: 20, metadata: 2, captionCredit: 1, renditions: 120, store: 5, dedup: 1, record: 0, catalog: 1 }),
      '{"msg":"item done", truncated',
    ];
    const b = foldStageLines(lines);
    expect(b.items).toBe(2);
    expect(b.meanMs.read).toBe(15);
    expect(b.meanMs.renditions).toBe(100);
    expect(b.meanItemMs).toBe(125);
    expect(b.share.renditions).toBeCloseTo(0.8, 10);
    expect(Object.values(b.share).reduce((a, x) => a + x, 0)).toBeCloseTo(1, 10);
  });

  it('counts a stage a line does not carry as zero and ignores other messages that mention it', () => {
    const b = foldStageLines([
      itemDone({ captionCredit: 2, dedup: 3, catalog: 1 }),
      JSON.stringify({ msg: 'batch done', note: '"item done"' }),
    ]);
    expect(b.items).toBe(1);
    expect(b.meanMs.renditions).toBe(0);
    expect(b.meanItemMs).toBe(6);
  });

  it('reports nothing, not NaN, when no item finished', () => {
    const b = foldStageLines([]);
    expect(b.items).toBe(0);
    expect(b.meanItemMs).toBe(0);
    expect(b.share.read).toBe(0);
  });
});

describe('splitIntoLanes (one share of the photos per parallel process)', () => {
  it('deals round-robin so each lane gets the same number, give or take one', () => {
    expect(splitIntoLanes(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
  });
  it('starts no empty lane when there are fewer photos than lanes', () => {
    expect(splitIntoLanes(['a'], 4)).toEqual([['a']]);
  });
  it('refuses a lane count that is not a whole number of 1 or more', () => {
    expect(() => splitIntoLanes(['a'], 0)).toThrow(RangeError);
  });
});

describe('fitInside (the rendition sizes every tool must produce)', () => {
  it('fits 24 MP landscape and portrait frames in the preview and thumb boxes', () => {
    expect(fitInside(6000, 4000, 1600)).toEqual({ width: 1600, height: 1067 });
    expect(fitInside(4000, 6000, 1600)).toEqual({ width: 1067, height: 1600 });
    expect(fitInside(1600, 1067, 400)).toEqual({ width: 400, height: 267 });
  });
  it('never enlarges a photo smaller than the box', () => {
    expect(fitInside(300, 200, 400)).toEqual({ width: 300, height: 200 });
  });
});
