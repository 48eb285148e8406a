import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseNewsmlG2 } from '../../../../src/core/feeds/xml/newsmlG2';
import { parseNitf } from '../../../../src/core/feeds/xml/nitf';
import { readImageMetadata } from '../../../../src/core/metadata/readImageMetadata';
import { readItemRights, xmpRightsTexts } from '../../../../src/core/rights/itemRightsInput';
import type { FeedItem } from '../../../../src/schemas/feedItem';

const FIX = path.resolve(__dirname, '../../../fixtures/kills');
const fromItem = (item: FeedItem) =>
  readItemRights({ item, iptc: item.iptc, captionRaw: item.captionRaw, removed: [], creditTail: null, agency: null });
const manifest = (name: string): FeedItem => {
  const m = JSON.parse(readFileSync(path.join(FIX, name), 'utf8')) as Record<string, string>;
  return {
    source: { file: name, position: 0, format: 'manifest-ndjson' },
    agencyId: m.id,
    captionRaw: m.caption,
    iptc: { caption: m.caption, specialInstructions: m.specialInstructions, credit: m.credit },
    image: null,
  };
};

describe('readItemRights: what the item stage reads from one item', () => {
  it('an AP-style MANDATORY KILL advisory names the killed transmission reference', () => {
    const n = fromItem(manifest('ap-mandatory-kill.ndjson')).notice;
    expect(n).toMatchObject({ kind: 'kill', targets: ['LON805'], selfTargeted: false });
    // the reason is the first notice text's: IIM 2:40 is read before the caption
    expect(n!.reason).toMatch(/PLEASE DELETE FROM ALL YOUR SYSTEMS/);
  });

  it('a Reuters-style NewsML-G2 cancel kills its own guid; the picture itself carries its usage terms', () => {
    const file = path.join(FIX, 'reuters-cancel.xml');
    const [cancel] = parseNewsmlG2(readFileSync(file, 'utf8'), file);
    expect(cancel.wire!.newsml).toMatchObject({ pubStatus: 'stat:canceled', version: '2' });
    expect(fromItem(cancel).notice).toMatchObject({
      kind: 'kill',
      targets: ['tag:reuters.com,2024:newsml_LYNXMPEK2A0RT'],
      selfTargeted: true,
    });
    const pic = path.join(FIX, 'reuters-picture.xml');
    const r = fromItem(parseNewsmlG2(readFileSync(pic, 'utf8'), pic)[0]);
    expect(r.notice).toBeNull();
    // usageTerms repeats the edNote word for word: read once, under the first source
    expect(r.rights.restrictions).toEqual([
      'editorial-only',
      'no-sales',
      'no-archive',
      'handout',
      'third-party-supplied',
    ]);
    expect(r.rights.raw.map((t) => t.source)).toEqual(
      expect.arrayContaining(['newsml:edNote', 'newsml:copyrightNotice', 'newsml:copyrightHolder']),
    );
  });

  it('an embargoed NITF document: date.release and management-status', () => {
    const file = path.join(FIX, 'nitf-embargoed.xml');
    const [item] = parseNitf(readFileSync(file, 'utf8'), file);
    const r = fromItem(item);
    expect(r.release.embargoUntil!.at).toBe('2099-01-01T00:01:00.000Z');
    expect(r.input.nitf).toMatchObject({ managementStatus: 'embargoed', dateRelease: '20990101T000100Z' });
  });

  it('an AFP-style handout: restrictions and OUT markets', () => {
    const r = fromItem(manifest('afp-handout.ndjson'));
    expect(r.rights.restrictions).toEqual(
      expect.arrayContaining(['editorial-only', 'mandatory-credit', 'no-commercial', 'no-sales', 'handout']),
    );
    expect(r.rights.outMarkets.map((m) => m.code)).toEqual(['CA', 'JP']);
  });

  it('XMP rights in attribute, lang-alt and struct form', () => {
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/" xmlns:plus="http://ns.useplus.org/ldf/xmp/1.0/"
        photoshop:Instructions="NO ARCHIVES" xmpRights:WebStatement="https://example.com/terms">
        <xmpRights:UsageTerms><rdf:Alt><rdf:li xml:lang="x-default">Editorial use only</rdf:li></rdf:Alt></xmpRights:UsageTerms>
        <plus:Licensor><rdf:Seq><rdf:li rdf:parseType="Resource"><plus:LicensorName>Mugwum Press</plus:LicensorName></rdf:li></rdf:Seq></plus:Licensor>
        <plus:ModelReleaseStatus rdf:resource="http://ns.useplus.org/ldf/vocab/MR-NON"/>
      </rdf:Description></rdf:RDF></x:xmpmeta>`;
    expect(xmpRightsTexts(xmp)).toEqual([
      { source: 'xmp:photoshop:Instructions', text: 'NO ARCHIVES' },
      { source: 'xmp:xmpRights:WebStatement', text: 'https://example.com/terms' },
      { source: 'xmp:xmpRights:UsageTerms', text: 'Editorial use only' },
      { source: 'xmp:plus:Licensor', text: 'Mugwum Press' },
      // the resource form of a URI value (before, it was read as an empty text and dropped)
      { source: 'xmp:plus:ModelReleaseStatus', text: 'http://ns.useplus.org/ldf/vocab/MR-NON' },
    ]);
  });

  it('PLUS constraints and the IPTC digital source type as ExifTool writes them (test/fixtures/rights/ORIGIN.md)', () => {
    const bytes = readFileSync(path.resolve(__dirname, '../../../fixtures/rights/plus-constraints.jpg'));
    const meta = readImageMetadata(bytes);
    const item: FeedItem = {
      source: { file: 'plus-constraints.jpg', position: 0, format: 'image' },
      captionRaw: '',
      iptc: meta.iptc,
      image: null,
    } as FeedItem;
    const r = readItemRights({
      item,
      iptc: meta.iptc,
      xmp: meta.raw.xmp,
      captionRaw: '',
      removed: [],
      creditTail: null,
      agency: null,
    });
    expect(r.rights.restrictions).toEqual(
      expect.arrayContaining(['model-release-missing', 'mandatory-credit', 'no-alteration']),
    );
    expect(r.rights.advisories).toEqual(['photo-illustration']); // trainedAlgorithmicMedia: generated, not a photograph
    expect(r.rights.raw).toEqual(
      expect.arrayContaining([{ source: 'xmp:plus:OtherConstraints', text: 'No use in advertising' }]),
    );
    expect(r.rights.matched.map((m) => m.rule)).toEqual(
      expect.arrayContaining([
        'plus:CR-CAI',
        'plus:AL-CRP',
        'plus:MR-NON',
        'digitalsourcetype:trainedalgorithmicmedia',
      ]),
    );
  });
});
