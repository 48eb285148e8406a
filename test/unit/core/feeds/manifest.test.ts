import * as path from 'node:path';
import { parseJsonManifest, parseNdjsonManifest } from '../../../../src/core/feeds/manifest';
import { InputError } from '../../../../src/core/errors';

const FEED = '/feeds/tonight/manifest.ndjson';

describe('NDJSON manifest', () => {
  it('maps caption, id, headline, credit, image and IPTC-named fields', () => {
    const line = JSON.stringify({
      id: 'A1',
      caption: 'A caption. (AP Photo/Jane Doe)',
      headline: 'Head',
      credit: 'AP',
      byline: 'JANE DOE',
      city: 'London',
      keywords: ['a', 'b'],
      image: 'photos/a.jpg',
      somethingElse: 42,
    });
    const { items } = parseNdjsonManifest(Buffer.from(line + '\n'), FEED);
    expect(items).toHaveLength(1);
    const it0 = items[0];
    expect(it0.error).toBeUndefined();
    expect(it0.agencyId).toBe('A1');
    expect(it0.captionRaw).toBe('A caption. (AP Photo/Jane Doe)');
    expect(it0.iptc).toMatchObject({
      headline: 'Head',
      credit: 'AP',
      byline: ['JANE DOE'],
      city: 'London',
      keywords: ['a', 'b'],
    });
    expect(it0.image).toBe(path.resolve('/feeds/tonight/photos/a.jpg'));
    expect(it0.source).toEqual({ file: FEED, position: 0, line: 1, format: 'manifest-ndjson' });
  });

  it('keeps the good lines and reports each bad one with its line number', () => {
    const text = [
      JSON.stringify({ caption: 'one' }),
      '{"caption": "two",', // truncated JSON
      '',
      JSON.stringify({ caption: 3 }), // wrong type
      JSON.stringify({ caption: 'four' }),
    ].join('\n');
    const { items } = parseNdjsonManifest(Buffer.from(text), FEED);
    expect(items.map((i) => i.captionRaw)).toEqual(['one', '', '', 'four']);
    expect(items[1].error).toMatchObject({ code: 'FEED_MALFORMED' });
    expect(items[1].error!.message).toContain(`${FEED}:2:`);
    expect(items[2].error).toMatchObject({ code: 'ITEM_INVALID' });
    expect(items[2].error!.message).toContain(`${FEED}:4:`);
    expect(items[3].error).toBeUndefined();
  });

  it('fails only the line with invalid UTF-8', () => {
    const good = Buffer.from(JSON.stringify({ caption: 'Zürich café' }) + '\n');
    const bad = Buffer.concat([Buffer.from('{"caption": "bad '), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    const { items } = parseNdjsonManifest(Buffer.concat([good, bad, good]), FEED);
    expect(items).toHaveLength(3);
    expect(items[0].captionRaw).toBe('Zürich café');
    expect(items[1].error).toMatchObject({ code: 'FEED_MALFORMED' });
    expect(items[1].error!.message).toMatch(/:2: the line is not valid UTF-8/);
    expect(items[2].error).toBeUndefined();
  });

  it('flags a reused id on the later item and keeps both', () => {
    const text = ['A', 'B', 'A'].map((id, i) => JSON.stringify({ id, caption: `c${i}` })).join('\n');
    const { items } = parseNdjsonManifest(Buffer.from(text), FEED);
    expect(items[0].error).toBeUndefined();
    expect(items[2].error).toMatchObject({ code: 'ITEM_DUPLICATE_ID' });
    expect(items[2].error!.message).toContain('already used by item 1');
  });

  it.each(['../../etc/passwd', '/etc/passwd', 'photos/../../x.jpg', 'file:///etc/passwd'])(
    'refuses an image path that leaves the feed folder: %s',
    (ref) => {
      const { items } = parseNdjsonManifest(Buffer.from(JSON.stringify({ caption: 'x', image: ref })), FEED);
      expect(items[0].error).toMatchObject({ code: 'PATH_OUTSIDE_FEED' });
      expect(items[0].image).toBeNull();
    },
  );
});

describe('JSON manifest', () => {
  it('accepts an array or {items: [...]}', () => {
    expect(parseJsonManifest('[{"caption":"a"},{"caption":"b"}]', 'm.json').items).toHaveLength(2);
    expect(parseJsonManifest('{"items":[{"caption":"a"}]}', 'm.json').items[0].source.format).toBe('manifest-json');
  });
  it('says what is wrong with a broken file', () => {
    expect(() => parseJsonManifest('{"items": [', 'm.json')).toThrow(InputError);
    expect(() => parseJsonManifest('{"things": []}', 'm.json')).toThrow(
      /must be an array of items or an object with an "items" array/,
    );
  });
});
