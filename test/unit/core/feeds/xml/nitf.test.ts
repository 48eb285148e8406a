import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseNitf, normalizeNitfDate } from '../../../../../src/core/feeds/xml/nitf';
import { feedItemSchema } from '../../../../../src/schemas/feedItem';
import { cpuMs } from '../../../../helpers/cpuTime';

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/feeds');
const FEED = path.join(FIXTURES, 'nitf-picture.xml');
const DROP = '/srv/drop/nitf/story.xml';
const CAPTION =
  'Spectators shelter under umbrellas as rain delays the men’s singles final on Centre Court at the All England Lawn Tennis & Croquet Club in London, Sunday, July 8, 2012. (Photo: Jane Halloran/Northwind Press)';

const nitf = (docdata: string, bodyHead: string, content: string): string =>
  `<nitf><head><title>T</title><docdata>${docdata}</docdata></head><body><body.head>${bodyHead}</body.head><body.content>${content}</body.content></body></nitf>`;

describe('parseNitf on the sample picture document', () => {
  const items = parseNitf(readFileSync(FEED, 'utf8'), FEED);

  it('reads one item with the document and media metadata', () => {
    expect(items).toEqual([
      {
        source: { file: FEED, position: 0, line: 39, format: 'nitf' },
        agencyId: 'tag:nwp.example,2012:NWP0042',
        agencyVersion: '3',
        captionRaw: CAPTION,
        iptc: {
          caption: CAPTION,
          headline: 'Rain delays final at Wimbledon',
          byline: ['Jane Halloran'],
          credit: 'Jane Halloran/Northwind Press',
          source: 'Northwind Press',
          copyright: '© 2012 Northwind Press',
          dateCreated: '2012-07-08T14:32:10+01:00',
          city: 'London',
          country: 'United Kingdom',
          countryCode: 'GB',
          objectName: 'TEN-WIMBLEDON-RAIN',
          keywords: ['tennis', 'Wimbledon', 'rain'],
        },
        image: path.join(FIXTURES, 'photo.jpg'),
        // rights, release and status (src/core/feeds/xml/wireRights.ts)
        wire: {
          nitf: { docId: 'tag:nwp.example,2012:NWP0042' },
          sent: '20120708T143210+0100',
          texts: [{ source: 'nitf:doc.copyright', text: '2012 Northwind Press' }],
        },
      },
    ]);
  });

  it('produces items that satisfy the FeedItem schema', () => {
    for (const it of items) expect(feedItemSchema.parse(it)).toEqual(it);
  });
});

describe('parseNitf with several or no images', () => {
  it('makes one item per image media, each with its own caption, credit and a distinct agency id', () => {
    const xml = nitf(
      '<doc-id id-string="DOC-9"/>',
      '<hedline><hl1>Two photos</hl1></hedline>',
      `<p>Story text.</p>
       <media media-type="image" id="m1"><media-reference source="one.jpg"/><media-caption>First</media-caption><media-producer>AP</media-producer></media>
       <media media-type="video"><media-reference source="clip.mp4"/></media>
       <block><media media-type="image"><media-reference source="two.jpg"/><media-caption>Second</media-caption></media></block>`,
    );
    const items = parseNitf(xml, DROP);
    expect(
      items.map((i) => [i.agencyId, i.source.position, i.captionRaw, i.iptc.credit, i.image, i.iptc.headline]),
    ).toEqual([
      ['DOC-9#m1', 0, 'First', 'AP', '/srv/drop/nitf/one.jpg', 'Two photos'],
      ['DOC-9#2', 1, 'Second', undefined, '/srv/drop/nitf/two.jpg', 'Two photos'],
    ]);
  });

  it('yields no items for a text-only story', () => {
    expect(
      parseNitf(
        nitf('<doc-id id-string="TXT"/>', '<hedline><hl1>Words only</hl1></hedline>', '<p>Long article.</p>'),
        DROP,
      ),
    ).toEqual([]);
  });

  it('separates caption paragraphs with one line break, dropping the indentation between them', () => {
    const [it] = parseNitf(
      nitf(
        '',
        '',
        '<media media-type="image"><media-caption>\n  <p>First paragraph.</p>\n  <p>Second <em>one</em>.</p>\n</media-caption></media>',
      ),
      DROP,
    );
    expect(it.captionRaw).toBe('First paragraph.\nSecond one.');
  });

  it('keeps an image media without a usable reference as a caption-only item', () => {
    const [it] = parseNitf(
      nitf('', '', '<media media-type="image"><media-caption>No file</media-caption></media>'),
      DROP,
    );
    expect(it.image).toBeNull();
    expect(it.captionRaw).toBe('No file');
    expect(it.error).toBeUndefined();
  });

  it('gives an image reference leaving the feed folder a PATH_OUTSIDE_FEED error on that item', () => {
    const [it] = parseNitf(
      nitf('', '', '<media media-type="image"><media-reference source="../../secret.jpg"/></media>'),
      DROP,
    );
    expect(it.image).toBeNull();
    expect(it.error?.code).toBe('PATH_OUTSIDE_FEED');
    expect(it.error?.message).toContain(DROP);
  });
});

describe('parseNitf document fields', () => {
  const one = (docdata: string, bodyHead: string) =>
    parseNitf(nitf(docdata, bodyHead, '<media media-type="image"><media-reference source="p.jpg"/></media>'), DROP)[0];

  it('reads a byline without person markup as its text, and byttl as the byline title', () => {
    const it = one('', '<byline>By Kim Lee, <byttl>Staff Photographer</byttl></byline>');
    expect(it.iptc.byline).toEqual(['By Kim Lee']);
    expect(it.iptc.bylineTitle).toEqual(['Staff Photographer']);
  });

  it('falls back to evloc for place and to the doc-id regsrc for source', () => {
    const it = one('<doc-id regsrc="XYZ" id-string="1"/><evloc city="Paris" state-prov="IDF" iso-cc="fr"/>', '');
    expect(it.iptc).toMatchObject({ city: 'Paris', state: 'IDF', countryCode: 'FR', source: 'XYZ' });
  });

  it('gives the copyright holder alone when no year is sent, and instructions from ed-msg', () => {
    const it = one('<doc.copyright holder="Agency X"/><ed-msg info="Do not crop"/>', '');
    expect(it.iptc.copyright).toBe('Agency X');
    expect(it.iptc.specialInstructions).toBe('Do not crop');
  });

  it('refuses a document that is not NITF with FEED_UNKNOWN_FORMAT', () => {
    expect(() => parseNitf('<newsItem/>', DROP)).toThrow(expect.objectContaining({ code: 'FEED_UNKNOWN_FORMAT' }));
  });
});

describe('normalizeNitfDate', () => {
  it.each([
    ['20120708T143210+0100', '2012-07-08T14:32:10+01:00'],
    ['20120708T143210Z', '2012-07-08T14:32:10Z'],
    ['20120708T1432-0500', '2012-07-08T14:32-05:00'],
    ['20120708', '2012-07-08'],
    ['2012-07-08T14:32:10+01:00', '2012-07-08T14:32:10+01:00'],
    ['July 8', 'July 8'],
  ])('%s → %s', (norm, iso) => {
    expect(normalizeNitfDate(norm)).toBe(iso);
  });
});

describe('parseNitf on hostile input', () => {
  it('refuses the billion-laughs fixture at once with XML_ENTITY_REFUSED', () => {
    const file = path.join(FIXTURES, 'billion-laughs.xml');
    const text = readFileSync(file, 'utf8');
    // CPU time: refused before any expansion, whatever else the machine is doing
    const ms = cpuMs(() =>
      expect(() => parseNitf(text, file)).toThrow(
        expect.objectContaining({ code: 'XML_ENTITY_REFUSED', message: expect.stringContaining(file) }),
      ),
    );
    expect(ms).toBeLessThan(1000);
  });
});
