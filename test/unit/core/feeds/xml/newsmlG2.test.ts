import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../../../../../src/core/errors';
import { parseNewsmlG2 } from '../../../../../src/core/feeds/xml/newsmlG2';
import { feedItemSchema } from '../../../../../src/schemas/feedItem';

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/feeds');
const FEED = path.join(FIXTURES, 'newsml-g2-picture.xml');
const CAPTION =
  'Spectators shelter under umbrellas as rain delays the men’s singles final on Centre Court at the All England Lawn Tennis & Croquet Club in London, Sunday, July 8, 2012. (Photo: Jane Halloran/Northwind Press)';

const NS = 'xmlns="http://iptc.org/std/nar/2006-10-01/"';
const DROP = '/srv/drop/agency/feed.xml';

/** A newsItem with the given contentMeta and contentSet bodies. */
function item(attrs: string, contentMeta: string, contentSet = '', itemClass = 'ninat:picture', extra = ''): string {
  return `<newsItem ${attrs}>${extra}<itemMeta><itemClass qcode="${itemClass}"/></itemMeta><contentMeta>${contentMeta}</contentMeta><contentSet>${contentSet}</contentSet></newsItem>`;
}
const message = (...items: string[]): string =>
  `<newsMessage ${NS}><itemSet>${items.join('\n')}</itemSet></newsMessage>`;

describe('parseNewsmlG2 on the sample picture feed', () => {
  const items = parseNewsmlG2(readFileSync(FEED, 'utf8'), FEED);

  it('reads one item with every field the agency sent', () => {
    expect(items).toEqual([
      {
        source: { file: FEED, position: 0, line: 14, format: 'newsml-g2' },
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
          newsml: { guid: 'tag:nwp.example,2012:NWP0042', pubStatus: 'stat:usable', version: '3' },
          sent: '2012-07-08T14:38:00+01:00',
          texts: [
            { source: 'newsml:usageTerms', text: 'Editorial use only.' },
            { source: 'newsml:copyrightNotice', text: '© 2012 Northwind Press' },
            { source: 'newsml:copyrightHolder', text: 'Northwind Press' },
          ],
        },
      },
    ]);
  });

  it('produces items that satisfy the FeedItem schema', () => {
    for (const it of items) expect(feedItemSchema.parse(it)).toEqual(it);
  });
});

describe('parseNewsmlG2 item selection', () => {
  it('takes every picture item of a message, skips text items, and keeps positions in the message', () => {
    const xml = message(
      item(
        'guid="a" version="1"',
        '<description role="drol:caption">First</description>',
        '<remoteContent href="a.jpg"/>',
      ),
      item('guid="story" version="1"', '<headline>A story</headline>', '', 'ninat:text'),
      item(
        'guid="b" version="2"',
        '<description role="drol:caption">Second</description>',
        '<remoteContent href="b.jpg"/>',
      ),
    );
    const items = parseNewsmlG2(xml, DROP);
    expect(items.map((i) => [i.agencyId, i.agencyVersion, i.source.position, i.captionRaw, i.image])).toEqual([
      ['a', '1', 0, 'First', '/srv/drop/agency/a.jpg'],
      ['b', '2', 2, 'Second', '/srv/drop/agency/b.jpg'],
    ]);
    expect(items[1].source.line).toBe(3);
  });

  it('reads a single newsItem document, with any namespace prefix', () => {
    const xml = `<g2:newsItem xmlns:g2="http://iptc.org/std/nar/2006-10-01/" guid="solo"><g2:itemMeta><g2:itemClass qcode="ninat:picture"/></g2:itemMeta><g2:contentMeta><g2:headline>Solo</g2:headline></g2:contentMeta></g2:newsItem>`;
    const [only] = parseNewsmlG2(xml, DROP);
    expect(only.agencyId).toBe('solo');
    expect(only.iptc.headline).toBe('Solo');
    expect(only.image).toBeNull();
    expect(only.captionRaw).toBe('');
  });

  it('takes an item without itemClass when it carries an image rendition', () => {
    const xml = message(
      `<newsItem guid="x"><contentSet><remoteContent href="x.jpg" contenttype="image/jpeg"/></contentSet></newsItem>`,
    );
    expect(parseNewsmlG2(xml, DROP).map((i) => i.image)).toEqual(['/srv/drop/agency/x.jpg']);
  });

  it('marks a repeated guid in one message as ITEM_DUPLICATE_ID on the later item only', () => {
    const xml = message(
      item('guid="same"', '<headline>one</headline>'),
      item('guid="same"', '<headline>two</headline>'),
    );
    const [first, second] = parseNewsmlG2(xml, DROP);
    expect(first.error).toBeUndefined();
    expect(second.error).toEqual({ code: 'ITEM_DUPLICATE_ID', message: expect.stringContaining('newsItem 0') });
    expect(second.error!.message).toContain(DROP);
  });

  it('refuses a document that is not NewsML-G2 with FEED_UNKNOWN_FORMAT', () => {
    expect(() => parseNewsmlG2('<nitf><head/></nitf>', DROP)).toThrow(
      expect.objectContaining({ code: 'FEED_UNKNOWN_FORMAT' }),
    );
  });
});

describe('parseNewsmlG2 renditions', () => {
  const rendition = (contentSet: string, feed = DROP) =>
    parseNewsmlG2(message(item('guid="r"', '', contentSet)), feed)[0];

  it('prefers rnd:highRes over a larger unmarked rendition', () => {
    const it = rendition(
      '<remoteContent href="web.jpg" rendition="rnd:web" width="4000" height="3000"/><remoteContent href="hi.jpg" rendition="rnd:highRes" width="2000" height="1500"/>',
    );
    expect(it.image).toBe('/srv/drop/agency/hi.jpg');
  });

  it('without highRes takes the rendition with most pixels, and ignores non-image content', () => {
    const it = rendition(
      '<remoteContent href="thumb.jpg" width="100" height="80"/><remoteContent href="big.jpg" width="1800" height="1200"/><remoteContent href="clip.mp4" contenttype="video/mp4" width="4000" height="3000"/>',
    );
    expect(it.image).toBe('/srv/drop/agency/big.jpg');
  });

  it('keeps an http(s) href as a URL', () => {
    expect(
      rendition('<remoteContent href="https://img.example/p/123.jpg?sig=a&amp;b=1" rendition="rnd:highRes"/>').image,
    ).toBe('https://img.example/p/123.jpg?sig=a&b=1');
  });

  it('decodes percent-escapes in a relative href', () => {
    expect(rendition('<remoteContent href="sub/my%20photo.jpg"/>').image).toBe('/srv/drop/agency/sub/my photo.jpg');
  });

  it('resolves a relative href against the URL of a feed fetched over HTTP', () => {
    expect(rendition('<remoteContent href="img/1.jpg"/>', 'https://wire.example/feeds/today.xml').image).toBe(
      'https://wire.example/feeds/img/1.jpg',
    );
  });

  const escapes: Array<[string, string]> = [
    ['a ../ path', '../../../etc/passwd'],
    ['an absolute path', '/etc/passwd'],
    ['a file: URL outside the folder', 'file:///etc/passwd'],
    ['an ftp: URL', 'ftp://wire.example/p.jpg'],
  ];
  it.each(escapes)(
    'gives an item whose href is %s a PATH_OUTSIDE_FEED error, and keeps the other items',
    (_name, href) => {
      const xml = message(
        item('guid="bad"', '<headline>bad</headline>', `<remoteContent href="${href}"/>`),
        item('guid="good"', '<headline>good</headline>', '<remoteContent href="ok.jpg"/>'),
      );
      const [bad, good] = parseNewsmlG2(xml, DROP);
      expect(bad.image).toBeNull();
      expect(bad.error?.code).toBe('PATH_OUTSIDE_FEED');
      expect(bad.error?.message).toContain('(bad)');
      expect(good.error).toBeUndefined();
      expect(good.image).toBe('/srv/drop/agency/ok.jpg');
    },
  );

  it('refuses a file: URL even from a feed fetched over HTTP', () => {
    const it = rendition('<remoteContent href="file:///etc/passwd"/>', 'https://wire.example/feed.xml');
    expect(it.image).toBeNull();
    expect(it.error?.code).toBe('PATH_OUTSIDE_FEED');
  });
});

describe('parseNewsmlG2 metadata fallbacks', () => {
  const meta = (contentMeta: string, extra = '') =>
    parseNewsmlG2(message(item('guid="m"', contentMeta, '', 'ninat:picture', extra)), DROP)[0];

  it('uses the caption-role description, not the summary', () => {
    const it = meta(
      '<description role="drol:summary">Short</description><description role="drol:caption">  The caption\n  on two lines  </description>',
    );
    expect(it.captionRaw).toBe('The caption\n  on two lines');
    expect(it.iptc.caption).toBe(it.captionRaw);
  });

  it('takes a description without role when none is a caption, and reads line breaks', () => {
    expect(meta('<description>Line one<br/>Line two</description>').captionRaw).toBe('Line one\nLine two');
  });

  it('falls back to <by> for the byline when no creator is given', () => {
    expect(meta('<by>Max Mustermann</by>').iptc.byline).toEqual(['Max Mustermann']);
  });

  it('lists every creator, from name or literal', () => {
    expect(meta('<creator><name>A One</name></creator><creator literal="B Two"/><by>ignored</by>').iptc.byline).toEqual(
      ['A One', 'B Two'],
    );
  });

  it('uses the copyright holder when there is no notice', () => {
    expect(meta('', '<rightsInfo><copyrightHolder literal="Holder Ltd"/></rightsInfo>').iptc.copyright).toBe(
      'Holder Ltd',
    );
  });

  it('reads only the source-role infoSource', () => {
    expect(
      meta(
        '<infoSource role="cRole:originatingParty" literal="Other"/><infoSource role="cRole:source"><name>Real</name></infoSource>',
      ).iptc.source,
    ).toBe('Real');
  });

  it('reads city, region and country from POIDetails and broader concepts', () => {
    const it = meta(
      '<located><name>Ignored when an address gives the locality</name><POIDetails><address><locality><name>Lyon</name></locality><area><name>Auvergne-Rhône-Alpes</name></area><country qcode="iso3166-1a2:fr"><name>France</name></country></address></POIDetails></located>',
    );
    expect(it.iptc).toMatchObject({
      city: 'Lyon',
      state: 'Auvergne-Rhône-Alpes',
      country: 'France',
      countryCode: 'FR',
    });
  });

  it('reads a located country without inventing a city', () => {
    const it = meta('<located type="loctype:Country" qcode="iso3166-1a2:DE"><name>Germany</name></located>');
    expect(it.iptc.city).toBeUndefined();
    expect(it.iptc).toMatchObject({ country: 'Germany', countryCode: 'DE' });
  });

  it('takes the city from a clear dateline only when located gives none', () => {
    expect(meta('<dateline>BERLIN, March 3</dateline>').iptc.city).toBe('BERLIN');
    expect(meta('<dateline>BERLIN (Reuters) -</dateline>').iptc.city).toBeUndefined();
    expect(meta('<located><name>Potsdam</name></located><dateline>BERLIN, March 3</dateline>').iptc.city).toBe(
      'Potsdam',
    );
  });

  it('adds named subjects to keywords once, and leaves code-only subjects out', () => {
    const it = meta(
      '<keyword>tennis</keyword><subject qcode="medtop:1"><name>tennis</name></subject><subject qcode="medtop:2"><name>sport</name></subject><subject qcode="medtop:3"/>',
    );
    expect(it.iptc.keywords).toEqual(['tennis', 'sport']);
  });

  it('reads a job id altId as the transmission reference, edNote as instructions and a writer contributor', () => {
    const xml = message(
      `<newsItem guid="j"><itemMeta><itemClass qcode="ninat:picture"/><edNote>Embargoed until 12:00</edNote></itemMeta><contentMeta><altId type="nwpid:jobId">JOB-7</altId><contributor role="nrol:descriptionWriter"><name>Ed Itor</name></contributor></contentMeta></newsItem>`,
    );
    expect(parseNewsmlG2(xml, DROP)[0].iptc).toEqual({
      transmissionReference: 'JOB-7',
      specialInstructions: 'Embargoed until 12:00',
      writer: 'Ed Itor',
    });
  });
});

describe('parseNewsmlG2 on hostile input', () => {
  it('refuses the XXE fixture and never shows /etc/passwd', () => {
    const file = path.join(FIXTURES, 'xxe.xml');
    let err: unknown;
    try {
      parseNewsmlG2(readFileSync(file, 'utf8'), file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('XML_ENTITY_REFUSED');
    expect((err as InputError).message).toContain(file);
    expect((err as InputError).message).not.toMatch(/root:.*:0:0:/);
  });
});
