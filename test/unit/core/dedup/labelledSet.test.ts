import { buildLabelledSet, readLabelledSet, storedForm } from '../../../../bench/dedup/labelledSet';
import { EDIT_KINDS } from '../../../../bench/dedup/wireEdits';

// The generated labelled set of wire edits (its real originals also feed bench/dedup/clusterSet.ts).
const set = readLabelledSet();

describe('the labelled set (test/fixtures/dedup/labelled.json)', () => {
  it('is what bench/dedup/labelledSet.ts generates (fixed seed): rebuild it, never edit it', () => {
    // The edits are made on the cleaned original, so a change to the caption cleaner may change
    // an edit's text; which captions exist, their labels, the originals and the negatives may not.
    const built = storedForm(buildLabelledSet()).captions;
    const stored = storedForm(set).captions;
    const shape = (cs: typeof stored) =>
      cs.map((c) => `${c.id}|${c.family}|${c.kind}|${c.of}|${c.of === null ? c.raw : ''}`);
    expect(shape(built).join('\n') === shape(stored).join('\n')).toBe(true);
    const sameRaw = built.filter((c, i) => c.raw === stored[i].raw).length;
    expect(sameRaw / stored.length).toBeGreaterThan(0.9);
  });

  it('holds real originals, every edit kind and different-story negatives, all cleaned by the caption cleaner', () => {
    const kinds = new Set(set.captions.map((c) => c.kind));
    for (const k of [...EDIT_KINDS, 'base', 'negative']) expect(kinds).toContain(k);
    expect(set.captions.filter((c) => c.kind === 'base')).toHaveLength(58);
    const prefixed = set.captions.filter((c) => c.kind === 'prefix');
    for (const c of prefixed)
      expect(c.cleaned).not.toMatch(/^(FILE PHOTO|UPDATED CAPTION|REFILE|CORRECTED CAPTION|FILE -)/);
    for (const c of set.captions.filter((x) => x.kind === 'suffix'))
      expect(c.cleaned).not.toMatch(/Picture taken with a mobile phone|SEARCH "/);
  });
});
