import { mergeIimXmp } from '../../../../src/core/metadata';

describe('mergeIimXmp', () => {
  it('prefers IIM, lets XMP fill gaps, and never merges lists item by item', () => {
    const merged = mergeIimXmp(
      { iptc: { credit: 'IIM', keywords: ['iim'] }, atLimit: new Set() },
      { credit: 'XMP', city: 'XMP city', keywords: ['xmp', 'more'] },
    );
    expect(merged).toEqual({ credit: 'IIM', city: 'XMP city', keywords: ['iim'] });
  });

  it('completes only the list items IIM cut', () => {
    const cut = 'k'.repeat(64);
    const merged = mergeIimXmp(
      { iptc: { keywords: ['short', cut] }, atLimit: new Set(['keywords#1']) },
      { keywords: ['short but longer', `${cut} and the rest`] },
    );
    expect(merged.keywords).toEqual(['short', `${cut} and the rest`]);
  });

  it('completes a UTF-8 value cut inside a character', () => {
    const merged = mergeIimXmp(
      { iptc: { credit: 'Agence Fran\ufffd' }, atLimit: new Set(['credit']) },
      { credit: 'Agence Française' },
    );
    expect(merged.credit).toBe('Agence Française');
  });

  it('keeps a full-length IIM value that XMP does not continue', () => {
    const merged = mergeIimXmp(
      { iptc: { credit: 'c'.repeat(32) }, atLimit: new Set(['credit']) },
      { credit: 'something else entirely, longer' },
    );
    expect(merged.credit).toBe('c'.repeat(32));
  });

  it('works with XMP alone', () => {
    expect(mergeIimXmp(undefined, { headline: 'Only XMP' })).toEqual({ headline: 'Only XMP' });
  });
});
