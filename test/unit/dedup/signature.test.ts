import { signCaption } from '../../../src/core/dedup/signature';

describe('signCaption', () => {
  it('gives exact duplicates (case, quotes, punctuation, spacing) the same cluster id and shingles', () => {
    const a = signCaption('Supporters of Julian Assange gather outside the "Ecuadorian Embassy", London.')!;
    const b = signCaption('supporters of julian assange gather  outside the \u201cEcuadorian Embassy\u201d London')!;
    expect(a.clusterId).toMatch(/^[0-9a-f]{16}$/);
    expect(b.clusterId).toBe(a.clusterId);
    expect(b.shingles).toEqual(a.shingles);
    expect(b.bands).toEqual(a.bands);
  });

  it('gives a plural rewording a different cluster id but the same shingles', () => {
    const a = signCaption('A supporter of WikiLeaks founder Julian Assange sits outside the embassy')!;
    const b = signCaption('Supporter of WikiLeaks founder Julian Assange sit outside the embassy')!;
    expect(b.clusterId).not.toBe(a.clusterId);
    expect(b.exactText).not.toBe(a.exactText);
    expect(a.shingles.length).toBe(b.shingles.length + 1); // only "a supporter" differs
  });

  it('keeps a fallback id different from the main one', () => {
    const s = signCaption('Julian Assange')!;
    expect(s.altClusterId).toMatch(/^[0-9a-f]{16}$/);
    expect(s.altClusterId).not.toBe(s.clusterId);
  });

  it('returns null for a caption with no words', () => {
    expect(signCaption('')).toBeNull();
    expect(signCaption(' \n\t ')).toBeNull();
    expect(signCaption('-- ... ()')).toBeNull();
  });
});
