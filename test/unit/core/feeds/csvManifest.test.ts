import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseCsvManifest } from '../../../../src/core/feeds/csvManifest';
import { feedItemSchema } from '../../../../src/schemas/feedItem';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/feeds');
const FEED = '/srv/drop/csv/manifest.csv';

describe('parseCsvManifest on the sample manifest', () => {
  const file = path.join(FIXTURES, 'manifest.csv');
  const out = parseCsvManifest(readFileSync(file, 'utf8'), file);

  it('reads the quoted id, the caption with commas and every IPTC column', () => {
    expect(out.errors).toEqual([]);
    expect(out.items).toHaveLength(1);
    const [item] = out.items;
    expect(item.agencyId).toBe('tag:nwp.example,2012:NWP0042');
    expect(item.agencyVersion).toBe('3');
    expect(item.source).toEqual({ file, position: 0, line: 2, format: 'csv' });
    expect(item.iptc).toMatchObject({
      headline: 'Rain delays final at Wimbledon',
      byline: ['Jane Halloran'],
      credit: 'Jane Halloran/Northwind Press',
      copyright: '© 2012 Northwind Press',
      dateCreated: '2012-07-08T14:32:10+01:00',
      countryCode: 'GB',
      keywords: ['tennis', 'Wimbledon', 'rain'],
      objectName: 'TEN-WIMBLEDON-RAIN',
    });
    expect(item.captionRaw).toMatch(
      /^Spectators .* Lawn Tennis & Croquet Club in London, Sunday, July 8, 2012\. \(Photo: Jane Halloran\/Northwind Press\)$/,
    );
    expect(item.image).toBe(path.join(FIXTURES, 'photo.jpg'));
    expect(feedItemSchema.parse(item)).toEqual(item);
  });
});

describe('parseCsvManifest RFC 4180 reading', () => {
  it('handles a BOM, CRLF, quoted newlines and doubled quotes, with lines of the record start', () => {
    const csv = '\ufeffImage,Caption\r\na.jpg,"He said ""hello""\r\nand left"\r\nb.jpg,plain\r\n';
    const { items, errors } = parseCsvManifest(csv, FEED);
    expect(errors).toEqual([]);
    expect(items.map((i) => [i.source.line, i.source.position, i.captionRaw, i.image])).toEqual([
      [2, 0, 'He said "hello"\r\nand left', '/srv/drop/csv/a.jpg'],
      [4, 1, 'plain', '/srv/drop/csv/b.jpg'],
    ]);
  });

  it('keeps caption text exactly, including edge spaces, and skips blank lines', () => {
    const { items } = parseCsvManifest('caption\n\n  spaced out  \n\n', FEED);
    expect(items.map((i) => i.captionRaw)).toEqual(['  spaced out  ']);
    expect(items[0].iptc.caption).toBe('  spaced out  ');
  });

  it('keeps empty trailing fields and a last line without newline', () => {
    const { items, errors } = parseCsvManifest('caption,credit,image\nx,,', FEED);
    expect(errors).toEqual([]);
    expect(items[0]).toMatchObject({ captionRaw: 'x', image: null, iptc: { caption: 'x' } });
    expect(items[0].iptc.credit).toBeUndefined();
  });

  it('names columns case-insensitively, ignoring spaces, dashes and underscores', () => {
    const { items, warnings } = parseCsvManifest(
      'DESCRIPTION,Credit_Line,BY-LINE,Date Created,GUID,File,job id,Province/State\nc,cr,A;B,2020-01-02,g1,p.jpg,J1,x\n',
      FEED,
    );
    expect(items[0]).toMatchObject({
      agencyId: 'g1',
      captionRaw: 'c',
      image: '/srv/drop/csv/p.jpg',
      iptc: { credit: 'cr', byline: ['A', 'B'], dateCreated: '2020-01-02', transmissionReference: 'J1' },
    });
    expect(warnings).toEqual([expect.stringContaining('"Province/State" is not one photowire reads')]);
  });
});

describe('parseCsvManifest bad rows', () => {
  it('reports rows with the wrong number of fields by line, and still returns the good rows', () => {
    const csv = ['id,caption,image', '1,one,1.jpg', '2,two', '3,three,3.jpg,extra', '4,four,4.jpg'].join('\n');
    const { items, errors } = parseCsvManifest(csv, FEED);
    expect(items.map((i) => i.agencyId)).toEqual(['1', '4']);
    expect(items.map((i) => i.source.position)).toEqual([0, 1]);
    expect(errors).toEqual([
      { line: 3, code: 'FEED_MALFORMED', message: `${FEED} line 3: 2 fields, but the header row has 3` },
      { line: 4, code: 'FEED_MALFORMED', message: `${FEED} line 4: 4 fields, but the header row has 3` },
    ]);
  });

  it('reports text after a closing quote and reads on from the next line', () => {
    const { items, errors } = parseCsvManifest('id,caption\n1,"broken" tail\n2,fine\n', FEED);
    expect(items.map((i) => i.agencyId)).toEqual(['2']);
    expect(errors).toEqual([
      { line: 2, code: 'FEED_MALFORMED', message: expect.stringContaining('after a closing quote') },
    ]);
  });

  it('reports a quote never closed at the line where it opened', () => {
    const { items, errors } = parseCsvManifest('id,caption\n1,ok\n2,"never closed\n3,lost\n', FEED);
    expect(items.map((i) => i.agencyId)).toEqual(['1']);
    expect(errors).toEqual([{ line: 3, code: 'FEED_MALFORMED', message: expect.stringContaining('never closed') }]);
  });

  it('gives the later rows of a repeated id ITEM_DUPLICATE_ID, pointing at the first', () => {
    const { items, errors } = parseCsvManifest('id,caption\nA,first\nB,other\n A ,again\n', FEED);
    expect(items.map((i) => i.captionRaw)).toEqual(['first', 'other']);
    expect(errors).toEqual([
      { line: 4, code: 'ITEM_DUPLICATE_ID', message: `${FEED} line 4: id "A" is already used by line 2` },
    ]);
  });

  it('gives an image path leaving the folder a per-item PATH_OUTSIDE_FEED error', () => {
    const { items } = parseCsvManifest('caption,image\nbad,../../etc/passwd\nabs,/etc/passwd\nok,sub/ok.jpg\n', FEED);
    expect(items.map((i) => [i.image, i.error?.code])).toEqual([
      [null, 'PATH_OUTSIDE_FEED'],
      [null, 'PATH_OUTSIDE_FEED'],
      ['/srv/drop/csv/sub/ok.jpg', undefined],
    ]);
    expect(items[0].error?.message).toContain(`${FEED} line 2`);
  });

  it('keeps an http image URL as is', () => {
    expect(parseCsvManifest('image\nhttps://img.example/a.jpg\n', FEED).items[0].image).toBe(
      'https://img.example/a.jpg',
    );
  });

  it('warns about a second column for the same field and uses the first', () => {
    const { items, warnings } = parseCsvManifest('caption,description\nfrom caption,from description\n', FEED);
    expect(items[0].captionRaw).toBe('from caption');
    expect(warnings).toEqual([expect.stringContaining('"description" is ignored')]);
  });
});

describe('parseCsvManifest unusable manifests', () => {
  it.each([
    ['an empty file', '', /empty/],
    ['only blank lines', '\n\n', /empty/],
    ['a header without caption or image column', 'id,headline\n1,h\n', /neither a caption nor an image column/],
    ['a header with a broken quote', '"id,caption\n', /header row/],
  ])('refuses %s with FEED_MALFORMED naming the file', (_name, csv, detail) => {
    expect(() => parseCsvManifest(csv, FEED)).toThrow(
      expect.objectContaining({ code: 'FEED_MALFORMED', message: expect.stringMatching(detail) }),
    );
    expect(() => parseCsvManifest(csv, FEED)).toThrow(FEED);
  });
});
