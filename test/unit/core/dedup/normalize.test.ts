import { captionWords, exactText, foldPlural, matchTokens } from '../../../../src/core/dedup/normalize';

/** The word rules written as regular expressions: slow, but easy to read. The scanner must agree. */
function wordsByRegex(text: string): string[] {
  const s = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2018\u2019\u201B\u02BC\u2032`\u00B4]/g, '')
    .replace(/(?<=[\p{L}\p{N}\p{M}])[-\u2010\u2011\u00AD](?=[\p{L}\p{N}\p{M}])/gu, '')
    .replace(/(?<=\d)[,.](?=\d{3}(?![\p{L}\p{N}\p{M}]))/gu, '')
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
  return s === '' ? [] : s.split(' ');
}

describe('exactText: what counts as the same caption', () => {
  it('ignores case, quotes, punctuation and spacing', () => {
    const a = 'Julian Assange\u2019s supporters, outside the "Embassy" -- London.';
    const b = "julian  assange's supporters outside the \u201cEmbassy\u201d London";
    expect(exactText(a)).toBe('julian assanges supporters outside the embassy london');
    expect(exactText(a)).toBe(exactText(b));
  });

  it('joins hyphenated words and thousands separators, keeps other numbers apart', () => {
    expect(exactText('the whistle-blowing website')).toBe(exactText('the whistleblowing website'));
    expect(exactText('dating back 1,500 years')).toBe('dating back 1500 years');
    expect(exactText('on 27/2/2012, 95% of it')).toBe('on 27 2 2012 95 of it');
    expect(exactText('scores 1,50 and 3.14159')).toBe('scores 1 50 and 3 14159');
  });

  it('keeps every word as written: plurals and accents still differ', () => {
    expect(exactText('A masked supporter')).not.toBe(exactText('Masked supporters'));
    expect(exactText('José')).not.toBe(exactText('Jose'));
  });

  it('has no words for empty or punctuation-only captions', () => {
    expect(exactText('')).toBe('');
    expect(exactText('  -- ... \u201c\u201d ')).toBe('');
  });

  it('agrees with the regular-expression version of the rules on varied text', () => {
    const samples = [
      "LONDON, ENGLAND - MAY 30: Supporters of Wikileaks founder Julian Assange demonstrate outside the UK Supreme Court following Mr Assange's extradition appeal",
      'Whistleblowing website WikiLeaks on February 27 began publishing more than five million emails - the anti-secrecy group said. AFP PHOTO / CARL COURT',
      'Assange took his extradition fight to Britain\u2019s Supreme Court, arguing that sending him to Sweden would breach legal principles dating back 1,500 years.',
      'Zürich – São Paulo — Kraków: naïve café-goers in Ærøskøbing; 1.000.000 visitors, 12,3456 or 7,890x?',
      'Ελληνικά κείμενα, русский текст-пример и 中文字符 ok',
      'don\u2019t stop \u2018quoted\u2019 rock-\u2019n-roll co\u00ADoperate -leading trailing- 3,000,000',
      'Devanagari: हिन्दी समाचार, emoji 😀 apart',
    ];
    for (const s of samples) expect(captionWords(s)).toEqual(wordsByRegex(s));
  });

  it('agrees with the regular-expression version on 20,000 random strings of tricky characters', () => {
    const alphabet = [
      'a',
      'B',
      'z',
      '1',
      '9',
      '0',
      '0',
      '0',
      '-',
      '\u2010',
      '\u00AD',
      "'",
      '\u2019',
      '`',
      ',',
      '.',
      ' ',
      ' ',
      '\t',
      'é',
      'ß',
      '\u0301',
      'İ',
      '😀',
      '/',
      '"',
    ];
    let seed = 42;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    for (let t = 0; t < 20000; t++) {
      let s = '';
      const len = next() % 16;
      for (let i = 0; i < len; i++) s += alphabet[next() % alphabet.length];
      expect([s, captionWords(s)]).toEqual([s, wordsByRegex(s)]);
    }
  });
});

describe('matchTokens: what similarity is measured on', () => {
  it('folds simple plurals, possessives and verb -s so singular and plural captions match', () => {
    expect(matchTokens('A masked supporter of Assange sits outside')).toEqual([
      'a',
      'masked',
      'supporter',
      'of',
      'assange',
      'sit',
      'outside',
    ]);
    expect(matchTokens('Masked supporters of Assange\u2019s sit outside')).toEqual([
      'masked',
      'supporter',
      'of',
      'assange',
      'sit',
      'outside',
    ]);
  });

  it('drops diacritics so a caption typed without accents still matches', () => {
    expect(matchTokens('José Müller in Kraków')).toEqual(matchTokens('Jose Muller in Krakow'));
  });

  it('leaves short words and -ss/-us/-is endings alone', () => {
    for (const w of ['was', 'has', 'its', 'press', 'status', 'this', 'bus']) expect(foldPlural(w)).toBe(w);
    expect(foldPlural('countries')).toBe('country');
    expect(foldPlural('officers')).toBe('officer');
  });
});
