import { readSeedCaptions } from '../../../../bench/dedup/seedCaptions';
import { captionParts } from '../../../../src/core/dedup/captionParts';
import { compareSubjects, comparisonTokens, subjectKey } from '../../../../src/core/dedup/subjectRule';
import { SubjectClusterer } from '../../../../src/core/dedup/subjectClusterer';

const seed = readSeedCaptions();
const byN = new Map(seed.map((s) => [s.n, s.raw]));
const key = (n: string) => subjectKey(byN.get(n)!)!;

/** The seed's groups of 2+ under the rule, in one arrival order. */
function groups(order: readonly string[]): string[][] {
  const c = new SubjectClusterer();
  for (const n of order) c.assign(n, byN.get(n)!);
  return [...c.partition().values()]
    .map((m) => [...m].sort())
    .filter((m) => m.length > 1)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function shuffled(xs: readonly string[], seedNo: number): string[] {
  let state = seedNo;
  const rnd = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('the caption-cluster rule on the 2012 seed gallery', () => {
  const feedOrder = seed.map((s) => s.n);

  it("keeps the issue's groups: {01,03,07} with {02,11} (one supporter or several), {04,05}, {08,09}; nothing else but 34/35 and 36/38", () => {
    expect(groups(feedOrder)).toEqual([
      ['01', '02', '03', '07', '11'],
      ['04', '05'],
      ['08', '09'],
      ['34', '35'],
      ['36', '38'],
    ]);
  });

  it('keeps the media (10) apart from the supporter (01) and the police (08), and the police from the supporter', () => {
    for (const [a, b] of [
      ['10', '01'],
      ['10', '08'],
      ['08', '01'],
    ]) {
      const m = compareSubjects(key(a), key(b));
      expect(m.same).toBe(false);
      expect(m.reason).toBeDefined();
    }
    // ...although they share the whole background sentence
    expect(captionParts(byN.get('10')!).background).toBe(captionParts(byN.get('01')!).background);
  });

  it('gives one partition in feed order, reversed and in three shuffled orders', () => {
    const want = groups(feedOrder);
    expect(groups([...feedOrder].reverse())).toEqual(want);
    for (const s of [1, 2, 3]) expect(groups(shuffled(feedOrder, s))).toEqual(want);
  });

  it('explains a member: the function word dropped between 01 and 02, nothing for 03', () => {
    expect(compareSubjects(key('01'), key('02'))).toEqual({
      same: true,
      cost: 1,
      edits: [{ kind: 'function-word', from: 'a', to: '' }],
    });
    expect(compareSubjects(key('01'), key('03'))).toEqual({ same: true, cost: 0, edits: [] });
  });
});

describe('what one subject may and may not differ by', () => {
  const base = 'Police officers outside the Ecuadorian Embassy in central London on May 30, 2012. Assange is inside.';
  const same = (a: string, b: string) => compareSubjects(subjectKey(a)!, subjectKey(b)!).same;

  it('the same subject: a typo fixed, a number corrected, the date written another way, capitals, the background dropped', () => {
    expect(same(base, base.replace('Ecuadorian', 'Ecudorian'))).toBe(true);
    expect(
      same('Two police officers stand outside the embassy.', 'Three police officers stand outside the embassy.'),
    ).toBe(false); // a word, not a number
    expect(same('5,000 people march in central London.', '50,000 people march in central London.')).toBe(true);
    expect(same(base, base.replace('May 30, 2012', 'Wednesday 30 May 2012'))).toBe(true);
    expect(same(base, base.toUpperCase())).toBe(true);
    expect(same(base, base.replace(' Assange is inside.', ''))).toBe(true);
  });

  it('another subject: another person, place, moment, date or score', () => {
    expect(same(base, base.replace('Police officers', 'Protesters'))).toBe(false);
    expect(same(base, base.replace('Ecuadorian Embassy', 'Supreme Court'))).toBe(false);
    expect(same(base, base.replace('on May 30', 'after the verdict on May 30'))).toBe(false);
    expect(same(base, base.replace('May 30', 'May 31'))).toBe(false);
    expect(same('Arsenal fans celebrate the 2-1 win.', 'Arsenal fans celebrate the 3-1 win.')).toBe(false);
    expect(same('Saka celebrates scoring their first goal', 'Saka celebrates scoring their second goal')).toBe(false);
  });

  it('reads scores, dates and weekdays as the rule needs them', () => {
    expect(comparisonTokens('Friday, June 22, 2012 at 2-1')).toEqual(['d20120622', 'at', 's2x1']);
  });
});
