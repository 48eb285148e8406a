import { candidateProbability, lshBands, minhashSignature } from '../../../src/core/dedup/minhash';
import { matchTokens } from '../../../src/core/dedup/normalize';
import { LSH_BANDS, LSH_ROWS, DEFAULT_DEDUP_THRESHOLD, INDEX_JACCARD_THRESHOLD } from '../../../src/core/dedup/params';
import { shingleHashes } from '../../../src/core/dedup/shingles';
import { intersectionSize, jaccard } from '../../../src/core/dedup/similarity';
import { signCaption } from '../../../src/core/dedup/signature';

const shingles = (text: string, k = 2) => shingleHashes(matchTokens(text), k);

describe('word shingles', () => {
  it('are a sorted set: repeated word pairs count once', () => {
    const s = shingles('police and police and police and press');
    expect(s.length).toBe(3); // "police and", "and police", "and press"
    for (let i = 1; i < s.length; i++) expect(s[i]).toBeGreaterThan(s[i - 1]);
  });

  it('depend on word order, not only on the words', () => {
    expect(jaccard(shingles('police arrest protesters outside court'), shingles('protesters arrest police outside court'))).toBeLessThan(0.5);
  });

  it('turn a caption shorter than a shingle into one shingle of all its words', () => {
    expect(shingles('Assange').length).toBe(1);
    expect(jaccard(shingles('Assange'), shingles('ASSANGE.'))).toBe(1);
    expect(jaccard(shingles('Assange'), shingles('Sarah'))).toBe(0);
    expect(shingles('Julian Assange', 3).length).toBe(1);
  });

  it('never make a one-word caption equal to a word pair of a longer caption', () => {
    const long = shingles('Julian Assange speaks');
    expect(intersectionSize(shingles('Julian'), long)).toBe(0);
  });

  it('are empty for a caption without words, and k must be positive', () => {
    expect(shingleHashes([], 2).length).toBe(0);
    expect(() => shingleHashes(['a'], 0)).toThrow(RangeError);
  });
});

describe('Jaccard similarity', () => {
  it('is 1 for the same set, 0 for disjoint sets and for two empty sets', () => {
    const a = Uint32Array.from([1, 5, 9]);
    expect(jaccard(a, a)).toBe(1);
    expect(jaccard(a, Uint32Array.from([2, 3]))).toBe(0);
    expect(jaccard(new Uint32Array(0), new Uint32Array(0))).toBe(0);
  });

  it('is |A and B| / |A or B|', () => {
    expect(jaccard(Uint32Array.from([1, 2, 3, 4]), Uint32Array.from([3, 4, 5]))).toBeCloseTo(2 / 5, 12);
  });

  it('costs two bigrams per changed word, so a one-word fix of a 70-word caption stays above the default threshold', () => {
    const words = Array.from({ length: 70 }, (_v, i) => `w${i}x`);
    const fixed = [...words];
    fixed[35] = 'corrected';
    const s = jaccard(shingleHashes(words, 2), shingleHashes(fixed, 2));
    expect(s).toBeCloseTo(67 / 71, 12);
    expect(s).toBeGreaterThanOrEqual(DEFAULT_DEDUP_THRESHOLD);
  });
});

describe('MinHash and LSH bands', () => {
  let seed = 7;
  const rnd = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed;
  };
  const sortedSet = (xs: number[]) => Uint32Array.from(new Set(xs)).sort();

  it('estimates Jaccard similarity without bias (agreement rate over 200 pairs at J = 0.6)', () => {
    let agree = 0;
    let total = 0;
    for (let t = 0; t < 200; t++) {
      const common = Array.from({ length: 45 }, rnd);
      const a = sortedSet([...common, ...Array.from({ length: 15 }, rnd)]);
      const b = sortedSet([...common, ...Array.from({ length: 15 }, rnd)]);
      const sa = minhashSignature(a, 64);
      const sb = minhashSignature(b, 64);
      for (let i = 0; i < 64; i++) if (sa[i] === sb[i]) agree++;
      total += 64;
    }
    // J = 45/75 = 0.6; 12,800 draws give a standard error of 0.0043.
    expect(agree / total).toBeGreaterThan(0.58);
    expect(agree / total).toBeLessThan(0.62);
  });

  it('gives identical captions identical bands and a near-duplicate most of them', () => {
    const text =
      'A masked supporter of Julian Assange outside the Embassy of Ecuador in Knightsbridge, central London, as the diplomatic row between the UK and Ecuador over WikiLeaks founder Julian Assange deepened after the Foreign Office said the Government would seek to extradite him even if he is granted political asylum by the South American nation.';
    const bands = (t: string) => lshBands(minhashSignature(shingles(t), LSH_BANDS * LSH_ROWS), LSH_BANDS, LSH_ROWS);
    expect(bands(text)).toEqual(bands(text.toUpperCase()));
    const near = bands(text.replace('A masked supporter', 'Masked supporters')); // J = 0.98
    const same = bands(text).filter((b, i) => b.hi === near[i].hi && b.lo === near[i].lo).length;
    expect(same).toBeGreaterThanOrEqual(LSH_BANDS / 2);
    const other = bands('Police officers stand guard outside the Supreme Court in central London on Friday.');
    expect(bands(text).filter((b, i) => b.hi === other[i].hi && b.lo === other[i].lo).length).toBe(0);
  });

  it('reaches Jaccard pairs of the new threshold with the 8x4 bands, and containment pairs with the anchors', () => {
    // Layout v2: J 0.8 (a word corrected on a short caption) is a candidate with p >= 0.98, J 0.6 with 0.66.
    expect(candidateProbability(0.8, LSH_BANDS, LSH_ROWS)).toBeGreaterThanOrEqual(0.98);
    expect(candidateProbability(0.6, LSH_BANDS, LSH_ROWS)).toBeGreaterThan(0.6);
    expect(candidateProbability(INDEX_JACCARD_THRESHOLD, LSH_BANDS, LSH_ROWS)).toBeGreaterThanOrEqual(0.9999);
    expect(candidateProbability(0.2, LSH_BANDS, LSH_ROWS)).toBeLessThan(0.02);
    // A caption cut at 200 characters keeps its first anchor; one with its first sentence removed its last.
    const text =
      'A masked supporter of Julian Assange outside the Embassy of Ecuador in Knightsbridge, central London, as the diplomatic row between the UK and Ecuador over WikiLeaks founder Julian Assange deepened after the Foreign Office said the Government would seek to extradite him even if he is granted political asylum by the South American nation.';
    const a = signCaption(text)!.bands;
    expect(a).toHaveLength(LSH_BANDS + 2);
    const cut = signCaption(text.slice(0, 200))!.bands;
    expect(cut[LSH_BANDS]).toEqual(a[LSH_BANDS]);
    expect(cut[LSH_BANDS + 1]).not.toEqual(a[LSH_BANDS + 1]);
    const tail = signCaption(text.slice(text.indexOf('deepened')))!.bands;
    expect(tail[LSH_BANDS + 1]).toEqual(a[LSH_BANDS + 1]);
    expect(signCaption('Julian Assange at the embassy.')!.bands).toHaveLength(LSH_BANDS); // too short for anchors
  });

  it('refuses empty sets and mismatched band layouts', () => {
    expect(() => minhashSignature(new Uint32Array(0), 8)).toThrow(RangeError);
    expect(() => lshBands(new Uint32Array(10), 3, 3)).toThrow(RangeError);
  });
});
