import { planTakes } from '../../../../src/app/hotFolder/planTakes';
import type { ReadyEntry } from '../../../../src/app/hotFolder/settle';

const ready = (...names: string[]): ReadyEntry[] =>
  names.map((name) => ({
    entry: { name, kind: 'file', signature: '1:1', ino: 0, incomplete: false },
    reason: 'settled',
  }));
const plan = (r: ReadyEntry[], present: string[], refs: Record<string, string[]>) =>
  planTakes(r, new Set(present), new Map(Object.entries(refs))).map(
    (t) => `${t.entry.name}${t.companions.length ? `+${t.companions.join('+')}` : ''}`,
  );

describe('a feed and the photos it names travel together', () => {
  it('a photo named by a feed in the folder is not taken on its own; it goes with the feed', () => {
    expect(
      plan(ready('g2.xml', 'photo.jpg', 'other.jpg'), ['g2.xml', 'photo.jpg', 'other.jpg'], {
        'g2.xml': ['photo.jpg'],
      }),
    ).toEqual(['g2.xml+photo.jpg', 'other.jpg']);
  });

  it('the feed waits while one of its photos is still arriving', () => {
    expect(plan(ready('g2.xml'), ['g2.xml', 'photo.jpg'], { 'g2.xml': ['photo.jpg'] })).toEqual([]);
  });

  it('a photo the feed names that is absent does not hold the feed', () => {
    expect(plan(ready('g2.xml'), ['g2.xml'], { 'g2.xml': ['photo.jpg'] })).toEqual(['g2.xml']);
  });

  it('a photo whose feed is still being written waits for it, even when settled itself', () => {
    expect(plan(ready('photo.jpg'), ['g2.xml', 'photo.jpg'], { 'g2.xml': ['photo.jpg'] })).toEqual([]);
  });

  it('two feeds naming the same photo both take it as a companion (the last one out moves it)', () => {
    expect(
      plan(ready('a.xml', 'b.xml', 'p.jpg'), ['a.xml', 'b.xml', 'p.jpg'], { 'a.xml': ['p.jpg'], 'b.xml': ['p.jpg'] }),
    ).toEqual(['a.xml+p.jpg', 'b.xml+p.jpg']);
  });
});
