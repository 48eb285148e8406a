import { readSeedCaptions, SEED_SAME_CAPTION } from '../../../bench/dedup/seedCaptions';
import { seedGroups, seedPairs } from '../../../bench/dedup/seedSimilarity';
import { DEFAULT_DEDUP_THRESHOLD, INDEX_JACCARD_THRESHOLD, SHINGLE_WORDS } from '../../../src/core/dedup/params';
import { pickBySimilarity, pickCluster, ReferenceClusterer } from '../../../src/core/dedup/referenceClusterer';
import { captionSimilarity } from '../../../src/core/dedup/similarity';

const seed = readSeedCaptions();
const byN = new Map(seed.map((s) => [s.n, s]));

describe('the seed gallery, cleaned', () => {
  it('has 41 captions and the credit tail and story note removed', () => {
    expect(seed.map((s) => s.n)).toEqual(Array.from({ length: 41 }, (_v, i) => String(i + 1).padStart(2, '0')));
    for (const s of seed) expect(s.cleaned).not.toMatch(/Photo credit|AFP PHOTO|\(Photo by|\(AP Photo|See PA story/i);
    expect(byN.get('02')!.cleaned).toBe(byN.get('11')!.cleaned);
  });
});

describe('seed clusters at the default threshold (issue 12: the same caption text, whichever photo)', () => {
  it('puts 01, 02, 03, 07, 08, 09, 10 and 11 in one cluster, 04/05 in one, and 32-38 together', () => {
    // Feed order. SEED_SAME_CAPTION is the hand labelling (bench/dedup/seedCaptions.ts).
    expect(seedGroups(seed, DEFAULT_DEDUP_THRESHOLD)).toEqual(SEED_SAME_CAPTION.map((g) => [...g]));
  });

  it('kept them apart under the old rule (bigram Jaccard at 0.94): the failure issue 12 reports', () => {
    expect(seedGroups(seed, INDEX_JACCARD_THRESHOLD, { measure: 'jaccard' })).toEqual([
      ['01', '02', '03', '07', '11'],
      ['04', '05'],
      ['08', '09'],
      ['34', '35'],
      ['36', '38'],
    ]);
  });

  it('scores a changed subject line on one paragraph high and another story low', () => {
    const pair = (a: string, b: string) => seedPairs(seed, SHINGLE_WORDS).find((p) => p.a === a && p.b === b)!;
    expect(pair('01', '08').caption).toBeGreaterThan(0.75); // "A masked supporter" / "Police officers"
    expect(pair('33', '37').caption).toBeGreaterThan(0.6);
    expect(pair('17', '18').caption).toBeLessThan(0.3); // two press conferences, two stories
    expect(pair('21', '23').caption).toBeLessThan(DEFAULT_DEDUP_THRESHOLD);
  });

  it('gives the same partition in feed order every time, and at most two partitions over 30 shuffled orders (only 15 moves)', () => {
    expect(seedGroups(seed, DEFAULT_DEDUP_THRESHOLD)).toEqual(seedGroups(seed, DEFAULT_DEDUP_THRESHOLD));
    let state = 11;
    const rnd = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const seen = new Set<string>();
    for (let t = 0; t < 30; t++) {
      const order = [...seed];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      const groups = seedGroups(order, DEFAULT_DEDUP_THRESHOLD).map((g) => g.filter((n) => n !== '15'));
      seen.add(JSON.stringify(groups.filter((g) => g.length > 1)));
    }
    expect(seen.size).toBe(1);
  });

  it('marks exact duplicates of the canonical caption and gives others their similarity', () => {
    const ref = new ReferenceClusterer(DEFAULT_DEDUP_THRESHOLD);
    const refs = new Map(seed.map((s) => [s.n, ref.assign(s.n, s.cleaned)!]));
    expect(refs.get('01')).toMatchObject({ canonicalId: '01', similarity: 1, exact: true });
    expect(refs.get('07')).toMatchObject({ id: refs.get('01')!.id, canonicalId: '01', similarity: 1, exact: true });
    expect(refs.get('03')).toMatchObject({ id: refs.get('01')!.id, exact: true });
    expect(refs.get('05')).toMatchObject({ id: refs.get('04')!.id, canonicalId: '04', exact: true });
    expect(refs.get('09')).toMatchObject({ id: refs.get('01')!.id, exact: false });
    expect(refs.get('11')!.id).toBe(refs.get('01')!.id);
    expect(refs.get('11')!.exact).toBe(false);
    // "Masked supporters" is the canonical less "a": 76 of its 77 bigrams, containment 1 - 0.2.
    expect(refs.get('11')!.similarity).toBeCloseTo(76 / 77, 6);
    expect(refs.get('38')).toMatchObject({ canonicalId: '32', exact: false });
  });

  it('follows a stricter threshold: at 0.99 the "Masked supporters" captions start their own cluster', () => {
    const ref = new ReferenceClusterer(0.99);
    const refs = new Map(seed.map((s) => [s.n, ref.assign(s.n, s.cleaned)!]));
    expect(refs.get('02')!.id).not.toBe(refs.get('01')!.id);
    expect(refs.get('11')).toMatchObject({ id: refs.get('02')!.id, canonicalId: '02', exact: true });
  });
});

describe('captionSimilarity', () => {
  const sim = (inter: number, interAll: number, canonical: number, caption: number) =>
    captionSimilarity({ inter, interAll, canonical, caption }, 0.2, 8);

  it('is Jaccard when nothing is contained', () => {
    expect(sim(9, 9, 10, 10)).toBeCloseTo(9 / 11, 12);
    expect(sim(0, 0, 10, 10)).toBe(0);
  });

  it('counts containment less the discount: a caption cut short, or the canonical plus a sentence', () => {
    expect(sim(30, 30, 80, 30)).toBeCloseTo(0.8, 12); // truncated: all its 30 bigrams are in the canonical's 80
    expect(sim(20, 20, 20, 28)).toBeCloseTo(0.8, 12); // canonical + an appended sentence
    expect(sim(10, 28, 80, 30)).toBeCloseTo(28 / 30 - 0.2, 12); // contained in what the members added
  });

  it('does not apply containment to captions of fewer than 8 shingles', () => {
    expect(sim(2, 2, 80, 2)).toBeCloseTo(2 / 80, 12);
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

describe('pickCluster and pickBySimilarity', () => {
  it('take the most similar at or above the threshold, ties to the smallest id', () => {
    const t = 0.9;
    expect(pickCluster([{ clusterId: 'b', inter: 9, union: 10 }, { clusterId: 'a', inter: 89, union: 100 }], t)?.clusterId).toBe('b');
    expect(pickCluster([{ clusterId: 'b', inter: 9, union: 10 }, { clusterId: 'a', inter: 18, union: 20 }], t)?.clusterId).toBe('a');
    expect(pickCluster([{ clusterId: 'a', inter: 89, union: 100 }], t)).toBeNull();
    expect(pickCluster([{ clusterId: 'a', inter: 9, union: 10 }], t)?.clusterId).toBe('a');
    expect(pickBySimilarity([{ clusterId: 'b', similarity: 0.7 }, { clusterId: 'a', similarity: 0.7 }, { clusterId: 'c', similarity: 0.4 }], 0.5)?.clusterId).toBe('a');
    expect(pickBySimilarity([{ clusterId: 'c', similarity: 0.4 }], 0.5)).toBeNull();
  });
});
