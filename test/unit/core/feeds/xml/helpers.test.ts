import { cityFromDateline } from '../../../../../src/core/feeds/xml/datelineCity';
import { resolveImageRef } from '../../../../../src/core/feeds/xml/resolveImageRef';
import { decodeReferences, namedEntity } from '../../../../../src/core/feeds/xml/xmlEntities';

describe('xmlEntities', () => {
  it('maps the whole HTML 4 Latin-1 range and the Greek letters to the right characters', () => {
    expect(namedEntity('nbsp')).toBe('\u00a0');
    expect(namedEntity('yuml')).toBe('\u00ff');
    expect(namedEntity('Rho')).toBe('\u03a1');
    expect(namedEntity('Sigma')).toBe('\u03a3');
    expect(namedEntity('sigmaf')).toBe('\u03c2');
    expect(namedEntity('omega')).toBe('\u03c9');
    expect(namedEntity('euro')).toBe('\u20ac');
    expect(namedEntity('hasOwnProperty')).toBeUndefined();
  });

  it('decodes astral numeric references and leaves unknown names untouched', () => {
    expect(decodeReferences('&#x1F4F7; &#128247; &bogus;')).toBe('\u{1F4F7} \u{1F4F7} &bogus;');
  });
});

describe('cityFromDateline', () => {
  it.each([
    ['LONDON, July 8', 'LONDON'],
    ['São Paulo', 'São Paulo'],
    ["  N'Djamena, 3 March 2012 ", "N'Djamena"],
    ['Paris, France', undefined],
    ['LONDON (Reuters) -', undefined],
    ['July 8, 2012', undefined],
    ['', undefined],
  ])('%j → %j', (dateline, city) => {
    expect(cityFromDateline(dateline)).toBe(city);
  });
});

describe('resolveImageRef', () => {
  it('returns null without error for an empty reference', () => {
    expect(resolveImageRef('/feeds/a.csv', '  ', false, 'x')).toEqual({ image: null });
  });

  it('takes CSV paths literally and XML hrefs as URI references', () => {
    expect(resolveImageRef('/feeds/a.csv', 'a%20b.jpg', false, 'x').image).toBe('/feeds/a%20b.jpg');
    expect(resolveImageRef('/feeds/a.xml', 'a%20b.jpg', true, 'x').image).toBe('/feeds/a b.jpg');
  });

  it('accepts a file: URL that stays inside the feed folder', () => {
    expect(resolveImageRef('/feeds/a.xml', 'file:///feeds/sub/p.jpg', true, 'x').image).toBe('/feeds/sub/p.jpg');
  });

  it('does not let an encoded ../ escape the folder', () => {
    const out = resolveImageRef('/feeds/a.xml', '%2e%2e/%2e%2e/etc/passwd', true, 'item 3');
    expect(out.image).toBeNull();
    expect(out.error).toEqual({ code: 'PATH_OUTSIDE_FEED', message: expect.stringMatching(/^item 3: /) });
  });

  it('resolves against the feed URL for web feeds and refuses other schemes there', () => {
    expect(resolveImageRef('http://wire.example/a/feed.csv', '/img/p.jpg', false, 'x').image).toBe(
      'http://wire.example/img/p.jpg',
    );
    expect(
      resolveImageRef('http://wire.example/a/feed.csv', 'data:image/jpeg;base64,AAAA', false, 'x').error?.code,
    ).toBe('PATH_OUTSIDE_FEED');
  });
});
