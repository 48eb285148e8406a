import { readSeedCaptions } from '../../../../bench/dedup/seedCaptions';
import { prng } from '../../../../bench/dedup/generateCaptions';
import { exactText } from '../../../../src/core/dedup/normalize';
import { MAX_EDITS, wordDiff, type WordDiff } from '../../../../src/core/dedup/wordDiff';

/** Apply a diff to the canonical's words: must give the member's words back. */
function apply(canonical: string, d: WordDiff): string {
  const a = canonical.split(/\s+/).filter((w) => w !== '');
  const out: string[] = [];
  let i = 0;
  for (const e of d.edits) {
    while (i < e.at) out.push(a[i++]);
    if (e.inserted) out.push(...e.inserted.split(' '));
    i += e.deleted ? e.deleted.split(' ').length : 0;
  }
  while (i < a.length) out.push(a[i++]);
  return out.join(' ');
}

function lcsLength(x: string[], y: string[]): number {
  const dp = Array.from({ length: x.length + 1 }, () => new Int32Array(y.length + 1));
  for (let i = 1; i <= x.length; i++)
    for (let j = 1; j <= y.length; j++)
      dp[i][j] = x[i - 1] === y[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
  return dp[x.length][y.length];
}

const seed = new Map(readSeedCaptions().map((s) => [s.n, s.cleaned]));

describe('wordDiff (cluster.diff)', () => {
  it('shows "Police officers" where the canonical says "A masked supporter of Julian Assange" (seed 08 against 01)', () => {
    const d = wordDiff(seed.get('01')!, seed.get('08')!);
    expect(d).toEqual({
      edits: [{ at: 0, deleted: 'A masked supporter of Julian Assange', inserted: 'Police officers' }],
      more: 0,
    });
  });

  it('is empty for an exact duplicate and ignores case and punctuation', () => {
    expect(wordDiff(seed.get('01')!, seed.get('07')!)).toEqual({ edits: [], more: 0 });
    expect(wordDiff('Police outside the embassy, London.', 'police outside the Embassy London')).toEqual({
      edits: [],
      more: 0,
    });
  });

  it('gives an appended sentence as one insertion at the end, and a moved clause as a deletion and an insertion', () => {
    expect(wordDiff('Fans cheer in Madrid.', 'Fans cheer in Madrid. More protests are planned.').edits).toEqual([
      { at: 4, deleted: '', inserted: 'More protests are planned.' },
    ]);
    const d = wordDiff(seed.get('36')!, seed.get('38')!);
    expect(d.edits.length).toBe(2);
    // Equal words may differ in punctuation ("asylum." / "asylum"), which a diff never shows.
    expect(exactText(apply(seed.get('36')!, d))).toBe(exactText(seed.get('38')!));
  });

  it('rebuilds the member from the canonical and is a shortest script (checked against LCS on 300 random pairs)', () => {
    const r = prng(5);
    const vocab = 'a b c d e f g'.split(' ');
    for (let t = 0; t < 300; t++) {
      const x = Array.from({ length: Math.floor(r() * 12) }, () => vocab[Math.floor(r() * vocab.length)]);
      const y = Array.from({ length: Math.floor(r() * 12) }, () => vocab[Math.floor(r() * vocab.length)]);
      const d = wordDiff(x.join(' '), y.join(' '));
      if (d.more > 0) continue;
      expect(apply(x.join(' '), d)).toBe(y.join(' '));
      const changed = d.edits.reduce(
        (n, e) => n + (e.deleted ? e.deleted.split(' ').length : 0) + (e.inserted ? e.inserted.split(' ').length : 0),
        0,
      );
      expect(changed).toBe(x.length + y.length - 2 * lcsLength(x, y));
    }
  });

  it('stays small: at most 16 runs, the rest counted', () => {
    const x = Array.from({ length: 60 }, (_v, i) => `w${i}`);
    const y = x.map((w, i) => (i % 2 === 0 ? `${w}x` : w));
    const d = wordDiff(x.join(' '), y.join(' '));
    expect(d.edits).toHaveLength(MAX_EDITS);
    expect(d.more).toBe(30 - MAX_EDITS);
  });
});
