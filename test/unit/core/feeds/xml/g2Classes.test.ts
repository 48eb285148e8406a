import { readNewsmlG2 } from '../../../../../src/core/feeds/xml/newsmlG2';
import { parseWireXml } from '../../../../../src/core/feeds/xml/parseWireXml';
import { countSkipped, skippedWarnings } from '../../../../../src/core/feeds/xml/wireXmlResult';

const NS = 'xmlns="http://iptc.org/std/nar/2006-10-01/"';
const DROP = '/srv/drop/agency/feed.xml';

const newsItem = (guid: string, itemClass: string, body = ''): string =>
  `<newsItem guid="${guid}" version="1"><itemMeta><itemClass qcode="${itemClass}"/></itemMeta>${body}</newsItem>`;
const picture = (guid: string, contentMeta = '', href = `${guid}.jpg`, extra = ''): string =>
  newsItem(
    guid,
    'ninat:picture',
    `<contentMeta>${contentMeta}</contentMeta>${extra}<contentSet><remoteContent href="${href}" contenttype="image/jpeg"/></contentSet>`,
  );
const message = (...items: string[]): string =>
  `<newsMessage ${NS}><itemSet>${items.join('\n')}</itemSet></newsMessage>`;
const itemRef = (residref: string, cls: string, attrs = ''): string =>
  `<itemRef residref="${residref}" ${attrs}><itemClass qcode="${cls}"/></itemRef>`;
const pkg = (guid: string, refs: string): string =>
  `<packageItem guid="${guid}" version="1"><itemMeta><itemClass qcode="ninat:composite"/></itemMeta><groupSet root="g"><group id="g" role="grpRole:main">${refs}</group></groupSet></packageItem>`;

describe('items that are not pictures', () => {
  it('a message with a text item and a picture: the picture, and the text item counted as skipped with its guid', () => {
    const r = readNewsmlG2(
      message(newsItem('story', 'ninat:text', '<contentMeta><headline>Words</headline></contentMeta>'), picture('pic')),
      DROP,
    );
    expect(r.items.map((i) => [i.agencyId, i.source.position])).toEqual([['pic', 1]]);
    expect(countSkipped(r.skipped)).toEqual({ text: 1 });
    expect(skippedWarnings(DROP, r.skipped)).toEqual([
      `${DROP}: skipped 1 text item`,
      `${DROP}: newsItem 0 (story) at line 1: skipped, a text item, not a picture`,
    ]);
  });

  it('a package with text, video, audio and a picture: the picture once, the rest by kind', () => {
    const xml = message(
      pkg(
        'p1',
        itemRef('t1', 'ninat:text') +
          itemRef('v1', 'ninat:video') +
          itemRef('a1', 'ninat:audio') +
          itemRef('pic', 'ninat:picture'),
      ),
      newsItem('t1', 'ninat:text'),
      newsItem('v1', 'ninat:video'),
      newsItem('a1', 'icls:audio'),
      picture('pic'),
    );
    const r = readNewsmlG2(xml, DROP);
    expect(r.items.map((i) => [i.agencyId, i.source.position, i.image])).toEqual([
      ['pic', 4, '/srv/drop/agency/pic.jpg'],
    ]);
    expect(r.items[0].error).toBeUndefined();
    expect(countSkipped(r.skipped)).toEqual({ package: 1, text: 1, video: 1, audio: 1 });
  });

  it('a bare packageItem root is a valid feed: pictures it cannot reach are listed as skipped with the reason', () => {
    const r = parseWireXml(
      `<?xml version="1.0"?>\n<packageItem ${NS} guid="p" version="2"><groupSet root="g"><group id="g">${itemRef('far', 'ninat:picture')}${itemRef('txt', 'ninat:text')}</group></groupSet></packageItem>`,
      DROP,
    );
    expect(r.items).toEqual([]);
    expect(countSkipped(r.skipped)).toEqual({ package: 1, picture: 1 });
    expect(r.skipped[1]).toMatchObject({
      kind: 'picture',
      reason: expect.stringContaining('neither in this message nor given an href'),
    });
    expect(r.skipped[1].label).toContain('itemRef "far"');
  });

  it('a groupSet root takes the picture its itemRef href names beside the feed', () => {
    const r = parseWireXml(
      `<groupSet ${NS} root="g"><group id="g"><itemRef residref="urn:pic:9" href="pic9.jpg" contenttype="image/jpeg" version="3"><itemClass qcode="ninat:picture"/><title>Pic\n   nine</title><description role="drol:caption">Caption nine</description></itemRef></group></groupSet>`,
      DROP,
    );
    expect(r.items).toEqual([
      {
        source: { file: DROP, position: 1, line: 1, format: 'newsml-g2' },
        agencyId: 'urn:pic:9',
        agencyVersion: '3',
        captionRaw: 'Caption nine',
        iptc: { caption: 'Caption nine', headline: 'Pic nine' },
        image: '/srv/drop/agency/pic9.jpg',
      },
    ]);
    expect(countSkipped(r.skipped)).toEqual({ package: 1 });
  });

  it('an itemRef href leaving the feed folder is skipped with PATH_OUTSIDE_FEED in the reason', () => {
    const r = readNewsmlG2(
      message(
        pkg(
          'p',
          '<itemRef residref="x" href="../../etc/x.jpg" contenttype="image/jpeg"><itemClass qcode="ninat:picture"/></itemRef>',
        ),
      ),
      DROP,
    );
    expect(r.items).toEqual([]);
    expect(r.skipped.find((s) => s.kind === 'picture')?.reason).toContain('outside the feed folder');
  });

  it('a package item file named by href is read through readRef, and its picture taken', () => {
    const files: Record<string, string> = {
      '/srv/drop/agency/items/pic.xml': `<newsItem ${NS} guid="urn:p" version="5">${'<itemMeta><itemClass qcode="ninat:picture"/></itemMeta><contentMeta><headline>From the item file</headline></contentMeta><contentSet><remoteContent href="pic.jpg"/></contentSet>'}</newsItem>`,
    };
    const xml = message(
      pkg(
        'p',
        '<itemRef residref="urn:p" href="items/pic.xml" contenttype="application/vnd.iptc.g2.newsitem+xml"><itemClass qcode="ninat:picture"/></itemRef>',
      ),
    );
    const r = readNewsmlG2(xml, DROP, { readRef: (f) => files[f] ?? null });
    expect(
      r.items.map((i) => [i.agencyId, i.agencyVersion, i.iptc.headline, i.image, i.source.position, i.source.file]),
    ).toEqual([
      ['urn:p', '5', 'From the item file', '/srv/drop/agency/items/pic.jpg', 1, '/srv/drop/agency/items/pic.xml'],
    ]);
    const missing = readNewsmlG2(xml, DROP, { readRef: () => null });
    expect(missing.skipped.find((s) => s.kind === 'picture')?.reason).toContain(
      "/srv/drop/agency/items/pic.xml is not in the feed's folder",
    );
  });

  it('a document of only concepts (knowledgeItem) is a feed of no items, not FEED_UNKNOWN_FORMAT', () => {
    const r = parseWireXml(`<knowledgeItem ${NS} guid="k"><conceptSet/></knowledgeItem>`, DROP);
    expect(r.items).toEqual([]);
    expect(countSkipped(r.skipped)).toEqual({ concept: 1 });
  });

  it.each([['ninat:Picture'], ['icls:PICTURE'], ['NINAT:picture'], ['icls:photo']])(
    'reads itemClass %s as a picture',
    (qcode) => {
      expect(
        readNewsmlG2(message(newsItem('p', qcode, '<contentSet><remoteContent href="p.jpg"/></contentSet>')), DROP)
          .items,
      ).toHaveLength(1);
    },
  );

  it('reads an itemClass given by uri', () => {
    const xml = message(
      '<newsItem guid="u"><itemMeta><itemClass uri="http://cv.iptc.org/newscodes/ninature/picture"/></itemMeta></newsItem>',
    );
    expect(readNewsmlG2(xml, DROP).items).toHaveLength(1);
  });
});

describe('headline and rendition', () => {
  it("collapses the XML's line breaks and indentation in a headline", () => {
    const [it] = readNewsmlG2(
      message(picture('h', '<headline>\n      Storm hits\n      the coast   today\n    </headline>')),
      DROP,
    ).items;
    expect(it.iptc.headline).toBe('Storm hits the coast today');
  });

  it('prefers the base image over view and thumbnail renditions when no size is given', () => {
    const xml = message(
      newsItem(
        'r',
        'icls:picture',
        '<contentSet><remoteContent href="t.jpg" rendition="rend:thumbnail"/><remoteContent href="b.jpg" rendition="rend:baseImage"/><remoteContent href="v.jpg" rendition="rend:viewImage"/></contentSet>',
      ),
    );
    expect(readNewsmlG2(xml, DROP).items[0].image).toBe('/srv/drop/agency/b.jpg');
  });
});

describe('locations through asserts, broader chains and concept types', () => {
  const place = (contentMeta: string, extra = '') =>
    readNewsmlG2(message(picture('l', contentMeta, 'l.jpg', extra)), DROP).items[0].iptc;

  it('dpa: a cpnat:poi literal resolved through its assert POIDetails, never the literal as city', () => {
    const iptc = place(
      '<located literal="poiID" type="cpnat:poi"/>',
      '<assert literal="poiID"><POIDetails><address><locality><name>Hamburg</name></locality><area><name>Hamburg</name></area><country qcode="dpacountry:1"><name role="nrol:short">DEU</name><name role="nrol:display">Deutschland</name><sameAs qcode="iso3166-1a3:DEU"/><sameAs qcode="iso3166-1a2:DE"/></country></address></POIDetails></assert>',
    );
    expect(iptc).toMatchObject({ city: 'Hamburg', state: 'Hamburg', country: 'Deutschland', countryCode: 'DE' });
    expect(iptc.sublocation).toBeUndefined();
  });

  it("Reuters: the country given through broader with Reuters' own type is kept", () => {
    const iptc = place(
      '<located qcode="N2:NAI" type="cptType:5"><name>NAIROBI</name><broader qcode="N2:KEN" type="cptType:5"><name>Kenya</name></broader></located>',
    );
    expect(iptc).toMatchObject({ city: 'NAIROBI', country: 'Kenya' });
  });

  it('IPTC: loctype City, CountryArea and Country with an ISO qcode', () => {
    const iptc = place(
      '<located type="loctype:City" qcode="city:1"><name>Lyon</name><broader type="loctype:CountryArea" qcode="area:2"><name>Auvergne-Rhône-Alpes</name></broader><broader type="loctype:Country" qcode="iso3166-1a2:FR"><name>France</name></broader></located>',
    );
    expect(iptc).toMatchObject({ city: 'Lyon', state: 'Auvergne-Rhône-Alpes', country: 'France', countryCode: 'FR' });
  });

  it('a located qcode explained by an assert: its name, type and broader chain (country through the broader of the broader)', () => {
    const iptc = place(
      '<located qcode="geo:345"/>',
      '<assert qcode="geo:345"><name>Berlin</name><type qcode="cpnat:geoArea"/><broader qcode="geo:12" type="cpnat:geoArea"/></assert><assert qcode="geo:12"><name>Brandenburg region</name><broader qcode="iso3166-1a2:DE" type="cpnat:geoArea"><name>Germany</name></broader></assert>',
    );
    expect(iptc).toMatchObject({ city: 'Berlin', state: 'Brandenburg region', country: 'Germany', countryCode: 'DE' });
  });

  it('a cpnat:geoArea with a broader of type country; a world region is not the country', () => {
    const iptc = place(
      '<located type="cpnat:geoArea"><name>Tromsø</name><broader type="loctype:Country"><name>Norway</name></broader><broader qcode="wldreg:r150"><name>Europe</name></broader></located>',
    );
    expect(iptc).toMatchObject({ city: 'Tromsø', country: 'Norway' });
    expect(iptc.state).toBeUndefined();
  });

  it('a named POI is the sublocation', () => {
    expect(
      place(
        '<located type="cpnat:poi"><name>Olympiastadion</name><broader type="loctype:City"><name>Berlin</name></broader></located>',
      ),
    ).toMatchObject({
      sublocation: 'Olympiastadion',
      city: 'Berlin',
    });
  });

  it('placeholders such as No-Data-Available are no place', () => {
    expect(
      place('<located literal="No-Data-Available" type="cptType:5"><name>No-Data-Available</name></located>').city,
    ).toBeUndefined();
  });
});
