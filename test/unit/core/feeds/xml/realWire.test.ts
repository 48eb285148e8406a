import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseFeedBytes } from '../../../../../src/adapters/feeds/loadFeed';
import { feedItemSchema } from '../../../../../src/schemas/feedItem';
import { SHARED_DIR } from '../../../../helpers/testEnv';

/**
 * Real agency files (test/fixtures/shared/fixtures/real-wire, origins in its MANIFEST.txt) read
 * the way a local feed is: through parseFeedBytes, with the feed's folder beside them.
 */
const REAL = path.join(SHARED_DIR, 'fixtures/real-wire');
const load = (rel: string) => {
  const file = path.join(REAL, rel);
  return { file, feed: parseFeedBytes(readFileSync(file), file) };
};

describe('dpa NewsML-G2 picture (POI located through an assert)', () => {
  const { file, feed } = load('dpa/urn_newsml_dpa.com_20090101_171117-90-000086.xml');

  it('reads guid, version, caption, headline, credit, byline and the image href', () => {
    expect(feed.format).toBe('newsml-g2');
    expect(feed.warnings).toEqual([]);
    expect(feed.skipped).toEqual({});
    expect(feed.items).toHaveLength(1);
    const [it] = feed.items;
    expect(it.agencyId).toBe('urn:newsml:dpa.com:20090101:171117-90-000086');
    expect(it.agencyVersion).toBe('2');
    expect(it.captionRaw).toBe(
      'Florian David Fitz kommt am 16.11.2017 in Berlin zur 69. Verleihung des Medienpreises Bambi. Foto: Jörg Carstensen/dpa',
    );
    expect(it.iptc).toMatchObject({
      headline: 'Verleihung des Medienpreises Bambi',
      byline: ['Jörg Carstensen'],
      credit: 'Jörg Carstensen/dpa',
      source: 'dpa',
    });
    expect(it.image).toBe(path.join(path.dirname(file), 'urn_binary_dpa_com_20090101_171117-90-000086-FILED.jpeg'));
    expect(feedItemSchema.parse(it)).toEqual(it);
  });

  it('takes the place from the POIDetails address, never the literal id "poiID"', () => {
    const [it] = feed.items;
    expect(it.iptc).toMatchObject({ city: 'Berlin', state: 'Berlin', country: 'Deutschland', countryCode: 'DE' });
    expect(Object.values(it.iptc).flat()).not.toContain('poiID');
  });
});

describe('Reuters NewsML-G2 pictures (place as a cptType:5 subject with broader concepts)', () => {
  it('GM1EA7M13RP01: city, state and country through broader, largest rendition read from the residref file beside the feed', () => {
    const { file, feed } = load('reuters/tag_reuters.com_0000_newsml_GM1EA7M13RP01_version_484616934');
    expect(feed.format).toBe('newsml-g2');
    expect(feed.items).toHaveLength(1);
    const [it] = feed.items;
    expect(it.agencyId).toBe('tag_reuters.com_0000_newsml_GM1EA7M13RP01');
    expect(it.agencyVersion).toBe('484616934');
    expect(it.captionRaw).toMatch(
      /^Cast member Vin Diesel arrives at the premiere of "Guardians of the Galaxy" in Hollywood, California July 21, 2014\..* REUTERS\/Mario Anzuoni {2}\(UNITED STATES - Tags: ENTERTAINMENT\)$/,
    );
    expect(it.iptc).toMatchObject({
      headline: 'Cast member Vin Diesel arrives at the premiere of "Guardians of the Galaxy" in Hollywood',
      byline: ['MARIO ANZUONI'],
      credit: 'REUTERS',
      city: 'HOLLYWOOD',
      state: 'CA',
      country: 'United States',
    });
    expect(it.iptc.keywords ?? []).not.toContain('HOLLYWOOD');
    // BASEIMAGE (3500x2113), not VIEWIMAGE or THUMBNAIL; the binary sits beside the XML under its residref.
    expect(it.image).toBe(path.join(path.dirname(file), 'tag_reuters.com_0000_binary_GM1EA7M13RP01-BASEIMAGE'));
  });

  it('picture.xml (Superdesk fixture): Kenya as country through broader, the auth-server URL of the base image', () => {
    const { feed } = load('newsml-g2/picture.xml');
    const [it] = feed.items;
    expect(it.agencyId).toBe('tag:reuters.com,0000:newsml_GM1E9341HD701');
    expect(it.agencyVersion).toBe('360624134');
    expect(it.iptc).toMatchObject({ byline: ['MARKO DJURICA'], credit: 'REUTERS', city: 'NAIROBI', country: 'Kenya' });
    expect(
      it.captionRaw.startsWith(
        "A woman casts her ballot inside a polling station in Kenya's town of Gatundu March 4, 2013.",
      ),
    ).toBe(true);
    expect(it.image).toMatch(/binary_GM1E9341HD701-BASEIMAGE$/);
  });

  it('video.xml: a package with text, video and audio items gives its one picture and says what it skipped', () => {
    const { file, feed } = load('newsml-g2/video.xml');
    expect(feed.items.map((i) => [i.agencyId, i.source.position])).toEqual([
      ['tag:reuters.com,2013:newsml_LOVE9230WHZNR', 4],
    ]);
    expect(feed.items[0].image).toMatch(/binary_LOVE9230WHZNR-BASEIMAGE:960X540$/);
    expect(feed.items[0].iptc.city).toBeUndefined(); // "No-Data-Available" is no place
    expect(feed.skipped).toEqual({ package: 1, text: 1, video: 1, audio: 1 });
    expect(feed.warnings[0]).toBe(`${file}: skipped 1 package item, 1 text item, 1 video item, 1 audio item`);
    expect(feed.warnings).toContainEqual(
      expect.stringContaining(
        'newsItem 2 (tag:reuters.com,2013:newsml_LOVE9230WHZNS) at line 163: skipped, a video item, not a picture',
      ),
    );
  });
});

describe('NITF article with a photo (nitf-fishing.xml)', () => {
  const { feed } = load('nitf/nitf-fishing.xml');

  it("takes the photo's creator from media-producer, not the article's byline, and keeps the caption as sent", () => {
    expect(feed.format).toBe('nitf');
    expect(feed.items).toHaveLength(1);
    const [it] = feed.items;
    expect(it.agencyId).toBe('iptc.321656141.b');
    expect(it.agencyVersion).toBe('1');
    expect(it.captionRaw).toBe('The tides, captured on film late yesterday.');
    expect(it.iptc.byline).toEqual(['Karben']);
    expect(it.iptc.credit).toBeUndefined();
    expect(it.iptc.bylineTitle).toBeUndefined();
    expect(it.iptc.headline).toBe('Weather and Tide Updates for Norfolk');
    expect(it.image).toMatch(/nitf\/high-tide\.jpg$/);
  });

  it('places the photo where the events took place (evloc), not where the story was filed', () => {
    expect(feed.items[0].iptc).toMatchObject({ city: 'Norfolk', state: 'VA', countryCode: 'US' });
  });
});
