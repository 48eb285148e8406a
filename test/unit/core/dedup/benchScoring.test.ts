import {
  generateCaptions,
  punctuationVariant,
  prng,
  typoVariant,
  type GeneratedCaption,
} from '../../../../bench/dedup/generateCaptions';
import { samePartition, scoreClustering } from '../../../../bench/dedup/scoring';
import { simulateCleaning } from '../../../../bench/dedup/seedCaptions';
import { exactText } from '../../../../src/core/dedup/normalize';

const labels = (o: Record<string, string>) => new Map(Object.entries(o));

describe('bench scoring', () => {
  it('is perfect for the same partition under other cluster names', () => {
    const s = scoreClustering(labels({ a: 'x', b: 'x', c: 'y' }), labels({ a: '1', b: '1', c: '2' }));
    expect(s).toMatchObject({
      bcubedPrecision: 1,
      bcubedRecall: 1,
      bcubedF1: 1,
      pairwisePrecision: 1,
      pairwiseRecall: 1,
    });
    expect(samePartition(labels({ a: 'x', b: 'x', c: 'y' }), labels({ a: '1', b: '1', c: '2' }))).toBe(true);
  });

  it('scores a split cluster as lost recall and a merge as lost precision (textbook B-cubed values)', () => {
    // Reference {a,b,c,d}; predicted {a,b} {c,d}: each item keeps 2 of its 4 -> recall 0.5, precision 1.
    const split = scoreClustering(
      labels({ a: 'p', b: 'p', c: 'q', d: 'q' }),
      labels({ a: 'r', b: 'r', c: 'r', d: 'r' }),
    );
    expect(split.bcubedPrecision).toBe(1);
    expect(split.bcubedRecall).toBe(0.5);
    expect(split.pairwiseRecall).toBeCloseTo(2 / 6, 12);
    // Reference {a,b} {c}; predicted {a,b,c}: precision (2/3 + 2/3 + 1/3) / 3.
    const merged = scoreClustering(labels({ a: 'p', b: 'p', c: 'p' }), labels({ a: 'r', b: 'r', c: 's' }));
    expect(merged.bcubedPrecision).toBeCloseTo(5 / 9, 12);
    expect(merged.bcubedRecall).toBe(1);
    expect(merged.pairwisePrecision).toBeCloseTo(1 / 3, 12);
    expect(samePartition(labels({ a: 'p', b: 'p', c: 'p' }), labels({ a: 'r', b: 'r', c: 's' }))).toBe(false);
  });

  it('refuses labelings of different items', () => {
    expect(() => scoreClustering(labels({ a: 'x' }), labels({ b: 'x' }))).toThrow(/item b/);
  });
});

describe('bench caption generator', () => {
  const sample = (() => {
    const g = generateCaptions({ seed: 3, variantsPerFamily: 2 });
    return Array.from({ length: 3000 }, () => g.next().value as GeneratedCaption);
  })();
  const baseOf = new Map(sample.filter((c) => c.kind === 'base').map((c) => [c.family, simulateCleaning(c.raw)]));

  it('is deterministic for a seed', () => {
    const again = generateCaptions({ seed: 3, variantsPerFamily: 2 });
    for (const c of sample.slice(0, 200)) expect(again.next().value).toEqual(c);
  });

  it('makes credit swaps and punctuation variants that are exact duplicates once cleaned', () => {
    const kinds = sample.filter((c) => c.kind === 'credit' || c.kind === 'punctuation');
    expect(kinds.length).toBeGreaterThan(300);
    for (const c of kinds) {
      const base = baseOf.get(c.family);
      if (base === undefined) continue; // family started before the sample
      expect(exactText(simulateCleaning(c.raw))).toBe(exactText(base));
    }
  });

  it('makes typo, trailing and number variants that differ from their original', () => {
    for (const c of sample.filter((x) => x.kind === 'typo' || x.kind === 'trailing' || x.kind === 'number')) {
      const base = baseOf.get(c.family);
      if (base !== undefined) expect(exactText(simulateCleaning(c.raw))).not.toBe(exactText(base));
    }
    const r = prng(1);
    expect(typoVariant(r, 'The Ecuadorian embassy')).not.toBe('The Ecuadorian embassy');
    expect(punctuationVariant(r, 'a, b')).not.toBe('a, b');
  });
});
