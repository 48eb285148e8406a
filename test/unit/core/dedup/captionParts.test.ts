import { readSeedCaptions } from '../../../../bench/dedup/seedCaptions';
import { captionParts, decodeCaptionText, fixMojibake, splitSentences } from '../../../../src/core/dedup/captionParts';

const seed = new Map(readSeedCaptions().map((s) => [s.n, s.raw]));

describe('captionParts: subject, background and slug of a wire caption', () => {
  it('splits the seed 01 into its subject sentence and the embassy background, credit removed', () => {
    const p = captionParts(seed.get('01')!);
    expect(p.subject).toMatch(
      /^A masked supporter of Julian Assange outside the Embassy of Ecuador in Knightsbridge, central London, as .* South American nation\.$/,
    );
    expect(p.background).toBe(
      'The Ecuadorian authorities have accused the Government of threatening to enter its embassy in London to seize Mr Assange, who faces sexual assault charges in Sweden.',
    );
    expect(p.slug).toBeNull();
    expect(p.text).not.toMatch(/Photo credit|Lipinski/);
  });

  it('gives 01 and 08 the same background and different subjects, and 02 (with its PA story note) the same background', () => {
    const [a, b, c] = ['01', '08', '02'].map((n) => captionParts(seed.get(n)!));
    expect(b.background).toBe(a.background);
    expect(c.background).toBe(a.background);
    expect(b.subject).toMatch(/^Police officers outside/);
  });

  it("reads Reuters' sports slug through its date, before a REFILE reason and after it", () => {
    const raw =
      "Soccer Football - Premier League - Newcastle United v Tottenham Hotspur - St James' Park, Newcastle, Britain - April 23, 2023 Tottenham Hotspur manager Cristian Stellini reacts REUTERS/Scott Heppell";
    const p = captionParts(raw);
    expect(p.slug).toBe(
      "Soccer Football - Premier League - Newcastle United v Tottenham Hotspur - St James' Park, Newcastle, Britain - April 23, 2023",
    );
    expect(p.subject).toBe('Tottenham Hotspur manager Cristian Stellini reacts');
    expect(captionParts(`REFILE - CORRECTING SPELLING OF NAME ${raw}`)).toEqual(p);
  });

  it("keeps Getty's dateline out of the subject", () => {
    const p = captionParts(seed.get('16')!);
    expect(p.dateline).toBe('LONDON, ENGLAND - MAY 30');
    expect(p.subject).toMatch(
      /^Supporters of Wikileaks founder Julian Assange demonstrate outside the UK Supreme Court/,
    );
    expect(p.slug).toBeNull();
  });

  it('reads HTML references, tags and UTF-8 shown as cp1252 as the plain caption', () => {
    const plain = captionParts('A man walks in "Paris", France. More text here.');
    expect(captionParts('A man&nbsp;walks in &ldquo;Paris&rdquo;, France.<p>More text here.</p>')).toEqual(plain);
    expect(captionParts('A man walks in \u00e2\u20ac\u0153Paris\u00e2\u20ac\u009d, France. More text here.')).toEqual(
      plain,
    );
    expect(fixMojibake('Z\u00c3\u00bcrich')).toBe('Z\u00fcrich');
    expect(fixMojibake('Z\u00fcrich, \u00d1and\u00fa')).toBe('Z\u00fcrich, \u00d1and\u00fa'); // real Latin-1 text stays
    expect(decodeCaptionText('&amp;nbsp;x')).toBe('\u00a0x');
  });

  it('does not end a sentence after a title, an initial, an abbreviation or a month', () => {
    expect(
      splitSentences('U.S. President George W. Bush speaks to Mr. Smith in St. Louis on Aug. 30, 2003. He said more.'),
    ).toEqual(['U.S. President George W. Bush speaks to Mr. Smith in St. Louis on Aug. 30, 2003.', 'He said more.']);
  });
});
