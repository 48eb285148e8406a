import { readSeedCaptions } from '../../../../bench/dedup/seedCaptions';
import { SubjectClusterer } from '../../../../src/core/dedup/subjectClusterer';

const seed = readSeedCaptions();
const byN = new Map(seed.map((s) => [s.n, s]));

describe('the seed gallery, cleaned', () => {
  it('has 41 captions and the credit tail and story note removed', () => {
    expect(seed.map((s) => s.n)).toEqual(Array.from({ length: 41 }, (_v, i) => String(i + 1).padStart(2, '0')));
    for (const s of seed) expect(s.cleaned).not.toMatch(/Photo credit|AFP PHOTO|\(Photo by|\(AP Photo|See PA story/i);
    expect(byN.get('02')!.cleaned).toBe(byN.get('11')!.cleaned);
  });
});

describe('the seed clustered by subject (one subject about one picture)', () => {
  const clusterer = new SubjectClusterer();
  const refs = new Map(seed.map((s) => [s.n, clusterer.assign(s.n, s.raw)!]));

  it('marks exact duplicates of the canonical caption, and explains the members that are not', () => {
    expect(refs.get('01')).toEqual({ id: refs.get('01')!.id, canonicalId: '01', similarity: 1, exact: true });
    expect(refs.get('07')).toEqual({ id: refs.get('01')!.id, canonicalId: '01', similarity: 1, exact: true });
    expect(refs.get('03')).toMatchObject({ id: refs.get('01')!.id, exact: true });
    expect(refs.get('05')).toMatchObject({ id: refs.get('04')!.id, canonicalId: '04' });
    expect(refs.get('09')).toMatchObject({ id: refs.get('08')!.id, canonicalId: '08' });
    // "Masked supporters" for "A masked supporter": the same subject, the article dropped.
    expect(refs.get('11')).toMatchObject({
      id: refs.get('01')!.id,
      canonicalId: '01',
      exact: false,
      why: { matched: ['subject'], background: 'same' },
    });
    expect(refs.get('11')!.similarity).toBeLessThan(1);
  });

  it('keeps different pictures on one background apart: the police (08) from the supporter (01), the media (10) from both', () => {
    expect(refs.get('08')!.id).not.toBe(refs.get('01')!.id);
    expect(refs.get('09')!.id).not.toBe(refs.get('01')!.id);
    expect(refs.get('10')!.id).not.toBe(refs.get('01')!.id);
    expect(refs.get('10')!.id).not.toBe(refs.get('08')!.id);
    expect(refs.get('04')!.id).not.toBe(refs.get('08')!.id);
  });

  it('answers a repeated item id with its first answer and gives empty captions no cluster', () => {
    const c = new SubjectClusterer();
    const first = c.assign('x', 'Julian Assange arrives at court.');
    expect(c.assign('x', 'Something else entirely.')).toEqual(first);
    expect(c.assign('e', '  ')).toBeNull();
    expect([...c.partition().values()]).toEqual([['x']]);
  });
});
