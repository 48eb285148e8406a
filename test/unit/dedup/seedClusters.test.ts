import { readSeedCaptions, SEED_SAME_CAPTION } from '../../../bench/dedup/seedCaptions';
import { seedGroups, seedPairs } from '../../../bench/dedup/seedSimilarity';
import { DEFAULT_DEDUP_THRESHOLD, SHINGLE_WORDS } from '../../../src/core/dedup/params';
import { pickCluster, ReferenceClusterer } from '../../../src/core/dedup/referenceClusterer';

const seed = readSeedCaptions();
const byN = new Map(seed.map((s) => [s.n, s]));

describe('the seed gallery, cleaned', () => {
  it('has 41 captions and the credit tail and story note removed', () => {
    expect(seed.map((s) => s.n)).toEqual(Array.from({ length: 41 }, (_v, i) => String(i + 1).padStart(2, '0')));
    for (const s of seed) expect(s.cleaned).not.toMatch(/Photo credit|AFP PHOTO|\(Photo by|\(AP Photo|See PA story/i);
    expect(byN.get('02')!.cleaned).toBe(byN.get('11')!.cleaned);
  });
});

describe('seed clusters at the default threshold (the measurement behind it)', () => {
  it('groups 01/02/03/07/11, 04/05, 08/09, 34/35 and 36/38, and leaves the other 28 alone', () => {
    expect(seedGroups(seed, DEFAULT_DEDUP_THRESHOLD)).toEqual(SEED_SAME_CAPTION.map((g) => [...g]));
  });

  it('sits in a gap: every same-caption pair is above the threshold, every other pair below', () => {
    const group = (n: string) => SEED_SAME_CAPTION.findIndex((g) => g.includes(n));
    const pairs = seedPairs(seed, SHINGLE_WORDS);
    const same = pairs.filter((p) => group(p.a) >= 0 && group(p.a) === group(p.b));
    const other = pairs.filter((p) => !(group(p.a) >= 0 && group(p.a) === group(p.b)));
    const lowestSame = Math.min(...same.map((p) => p.similarity));
    const highestOther = Math.max(...other.map((p) => p.similarity));
    // The figures quoted in params.ts and docs/DEDUP.md.
    expect(lowestSame).toBeCloseTo(0.951, 3);
    expect(same.find((p) => p.similarity === lowestSame)).toMatchObject({ a: '36', b: '38' });
    expect(highestOther).toBeCloseTo(0.923, 3);
    expect(other.find((p) => p.similarity === highestOther)).toMatchObject({ a: '02', b: '08' });
    expect(highestOther).toBeLessThan(DEFAULT_DEDUP_THRESHOLD);
    expect(lowestSame).toBeGreaterThanOrEqual(DEFAULT_DEDUP_THRESHOLD);
  });

  it('gives the same partition whatever order the captions arrive in', () => {
    let state = 11;
    const rnd = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const expected = JSON.stringify(seedGroups(seed, DEFAULT_DEDUP_THRESHOLD));
    for (let t = 0; t < 30; t++) {
      const order = [...seed];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      expect(JSON.stringify(seedGroups(order, DEFAULT_DEDUP_THRESHOLD))).toBe(expected);
    }
  });

  it('marks exact duplicates of the canonical caption and gives others their similarity', () => {
    const ref = new ReferenceClusterer(DEFAULT_DEDUP_THRESHOLD);
    const refs = new Map(seed.map((s) => [s.n, ref.assign(s.n, s.cleaned)!]));
    expect(refs.get('01')).toMatchObject({ canonicalId: '01', similarity: 1, exact: true });
    expect(refs.get('07')).toMatchObject({ id: refs.get('01')!.id, canonicalId: '01', similarity: 1, exact: true });
    expect(refs.get('11')!.id).toBe(refs.get('01')!.id);
    expect(refs.get('11')!.exact).toBe(false);
    expect(refs.get('11')!.similarity).toBeCloseTo(76 / 77, 6);
    expect(refs.get('38')).toMatchObject({ canonicalId: '36', exact: false });
  });

  it('follows a stricter threshold: at 0.99 the "Masked supporters" captions start their own cluster', () => {
    const ref = new ReferenceClusterer(0.99);
    const refs = new Map(seed.map((s) => [s.n, ref.assign(s.n, s.cleaned)!]));
    expect(refs.get('02')!.id).not.toBe(refs.get('01')!.id);
    expect(refs.get('11')).toMatchObject({ id: refs.get('02')!.id, canonicalId: '02', exact: true });
  });
});

describe('ReferenceClusterer', () => {
  it('answers a repeated item id with its first answer and gives empty captions no cluster', () => {
    const ref = new ReferenceClusterer(DEFAULT_DEDUP_THRESHOLD);
    const first = ref.assign('x', 'Julian Assange arrives at court');
    expect(ref.assign('x', 'Something else entirely')).toEqual(first);
    expect(ref.assign('e', '  ')).toBeNull();
    expect([...ref.partition().values()]).toEqual([['x']]);
  });
});

describe('pickCluster', () => {
  it('takes the most similar at or above the threshold, ties to the smallest id', () => {
    const t = 0.9;
    expect(pickCluster([{ clusterId: 'b', inter: 9, union: 10 }, { clusterId: 'a', inter: 89, union: 100 }], t)?.clusterId).toBe('b');
    expect(pickCluster([{ clusterId: 'b', inter: 9, union: 10 }, { clusterId: 'a', inter: 18, union: 20 }], t)?.clusterId).toBe('a');
    expect(pickCluster([{ clusterId: 'a', inter: 89, union: 100 }], t)).toBeNull();
    expect(pickCluster([{ clusterId: 'a', inter: 9, union: 10 }], t)?.clusterId).toBe('a');
  });
});
