import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseXmlSafely } from '../../../../src/core/feeds/xml/safeXml';
import { attr, descendants, path as xmlPath, text, type XmlElement } from '../../../../src/core/feeds/xml/xmlTree';
import { readNotice } from '../../../../src/core/kills/readNotice';
import { readImageMetadata } from '../../../../src/core/metadata';
import { iimDateToIso } from '../../../../src/core/metadata/dates';
import { readRelease, releaseState } from '../../../../src/core/release/readRelease';
import type { ItemRightsInput } from '../../../../src/core/rights/input';
import { readRights } from '../../../../src/core/rights/readRights';
import type { SourcedText } from '../../../../src/schemas/rights';
import { SHARED_DIR } from '../credits/sharedFixtures';

/**
 * The shared real files (test/fixtures/shared): what the wiring wave will pass in, read here the
 * way it will be read there: IPTC through photowire's own metadata reader, XMP rights fields
 * through exiftool (the reader does not extract them yet), NewsML-G2 and NITF through the safe
 * XML reader.
 */

const WIRE = path.join(SHARED_DIR, 'fixtures/wire-images');
const REAL = path.join(SHARED_DIR, 'fixtures/real-wire');

/** XMP rights fields (and the XMP Special Instructions, which IIM cuts at 256 bytes) as exiftool reads them. */
function xmpRights(file: string): SourcedText[] {
  const [tags] = JSON.parse(
    execFileSync(
      'exiftool',
      [
        '-j',
        '-XMP-photoshop:Instructions',
        '-XMP-xmpRights:UsageTerms',
        '-XMP-xmpRights:WebStatement',
        '-XMP-plus:ImageSupplierName',
        '-XMP-plus:LicensorName',
        '-XMP-plus:CopyrightOwnerName',
        file,
      ],
      {
        encoding: 'utf8',
      },
    ),
  ) as Array<Record<string, unknown>>;
  const out: SourcedText[] = [];
  const add = (source: SourcedText['source'], v: unknown) => {
    for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.push({ source, text: String(x) });
  };
  add('xmp:photoshop:Instructions', tags.Instructions);
  add('xmp:xmpRights:UsageTerms', tags.UsageTerms);
  add('xmp:xmpRights:WebStatement', tags.WebStatement);
  add('xmp:plus:ImageSupplier', tags.ImageSupplierName);
  add('xmp:plus:Licensor', tags.LicensorName);
  add('xmp:plus:CopyrightOwner', tags.CopyrightOwnerName);
  return out;
}

/** An image's rights input: IIM/XMP fields from photowire's reader, XMP rights from exiftool. */
function imageInput(file: string): ItemRightsInput & { created?: string } {
  const meta = readImageMetadata(readFileSync(file));
  const iim = (n: number) => meta.raw.iim.find((d) => d.record === 2 && d.dataset === n)?.value;
  const texts: SourcedText[] = [];
  if (iim(40) !== undefined) texts.push({ source: 'iptc:specialInstructions', text: iim(40)! });
  if (meta.iptc.copyright !== undefined) texts.push({ source: 'iptc:copyright', text: meta.iptc.copyright });
  if (meta.iptc.credit !== undefined) texts.push({ source: 'iptc:credit', text: meta.iptc.credit });
  if (meta.iptc.source !== undefined) texts.push({ source: 'iptc:source', text: meta.iptc.source });
  if (meta.iptc.caption !== undefined) texts.push({ source: 'caption', text: meta.iptc.caption });
  texts.push(...xmpRights(file));
  return {
    texts,
    iptc: { releaseDate: iim(30), releaseTime: iim(35), expirationDate: iim(37), expirationTime: iim(38) },
    ids: { transmissionReference: meta.iptc.transmissionReference ?? null },
    // The time of transmission: IIM's own date (2:55), which the wire sets when it sends; the merged
    // dateCreated follows MWG and is EXIF's DateTimeOriginal (when the photo was taken, weeks earlier for GAC103).
    referenceTime: (iim(55) && iimDateToIso(iim(55)!)) ?? meta.iptc.dateCreated ?? null,
  };
}

describe('rights of the shared wire images', () => {
  it("GAC103 (The Canadian Press handout): its special instructions' restrictions and 14-day window", () => {
    const input = imageInput(path.join(WIRE, 'GAC103-thumb.jpg'));
    // IIM 2:40 stops at 256 bytes ("...THIS IMAGE M"); the 14-day window is only in the XMP copy: both are read.
    expect(input.texts.find((t) => t.source === 'iptc:specialInstructions')!.text).toMatch(/THIS IMAGE M$/);
    expect(input.texts.find((t) => t.source === 'xmp:photoshop:Instructions')!.text).toMatch(
      /14 DAYS FROM THE TIME OF TRANSMISSION$/,
    );
    const r = readRights(input);
    expect(r.restrictions).toEqual([
      'no-sales',
      'no-archive',
      'one-time-use',
      'time-limited',
      'mandatory-credit',
      'handout',
      'news-context-only',
    ]);
    expect(r.confidence).toBe('high');
    expect(r.usageTerms).toBe(input.texts.find((t) => t.source === 'xmp:photoshop:Instructions')!.text);
    const rel = readRelease({ ...input, agency: 'CP' });
    expect(input.referenceTime).toMatch(/^2023-09-21/);
    expect(rel.expires).toMatchObject({
      source: 'xmp:photoshop:Instructions',
      text: 'MAY BE USED ONLY FOR 14 DAYS FROM THE TIME OF TRANSMISSION',
    });
    expect(Date.parse(rel.expires!.at!) - Date.parse(input.referenceTime!)).toBe(14 * 86_400_000);
    expect(releaseState(rel, '2023-09-25T00:00:00Z').state).toBe('available');
    expect(releaseState(rel, '2023-10-10T00:00:00Z').state).toBe('expired');
  });

  it("Reuters LYNXMPEA6F0MS: Reuters' coded instructions", () => {
    const r = readRights(imageInput(path.join(WIRE, 'reuters-LYNXMPEA6F0MS-thumb.jpg')));
    expect(r.restrictions).toEqual(['editorial-only', 'no-sales', 'no-archive', 'third-party-supplied']);
    expect(r.outMarkets).toEqual([{ name: 'Syria', kind: 'country', code: 'SY', raw: 'SYR' }]);
  });

  it('pa.jpg: PA restrictions and the file-photo note', () => {
    const r = readRights(imageInput(path.join(WIRE, 'pa.jpg')));
    expect(r.restrictions).toEqual(['editorial-only', 'no-commercial', 'restrictions-apply']);
    expect(r.advisories).toEqual(['file-photo']);
  });

  it('cp.jpg: "EDS NOTE:A FILE PHOTO" is a file photo', () => {
    const r = readRights(imageInput(path.join(WIRE, 'cp.jpg')));
    expect(r.advisories).toEqual(['file-photo']);
    expect(r.restrictions).toEqual([]);
  });

  it('corbis.jpg: a market out in its XMP usage terms, and no restriction from "For latest restrictions check"', () => {
    const r = readRights(imageInput(path.join(WIRE, 'corbis.jpg')));
    expect(r.outMarkets.map((m) => [m.name, m.code])).toEqual([['Finland', 'FI']]);
    expect(r.restrictions).toEqual([]);
    expect(r.usageTerms).toBe('Not available for license and invoicing to customers located in Finland.');
    expect(r.confidence).toBe('high');
  });

  it('the IPTC reference examples: media out, one-time use, permission', () => {
    const agency = readRights(imageInput(path.join(WIRE, 'iptc-agency-photographer-example.jpg')));
    expect(agency.restrictions).toEqual(['one-time-use', 'no-magazines']);
    expect(agency.outMarkets.map((m) => m.name)).toEqual(['magazines']);
    expect(agency.raw.filter((t) => t.source === 'xmp:plus:Licensor').map((t) => t.text)).toEqual(['Mugwum Press']);
    const staff = readRights(imageInput(path.join(WIRE, 'iptc-staff-photographer-example.jpg')));
    expect(staff.restrictions).toEqual(['no-newspapers', 'permission-required']);
    const independent = readRights(imageInput(path.join(WIRE, 'iptc-independent-photographer-example.jpg')));
    expect(independent.restrictions).toEqual(['no-third-party-sales', 'permission-required']);
    const reference = readRights(imageInput(path.join(WIRE, 'IPTC-PhotometadataRef-Std2023.2.jpg')));
    expect(reference.restrictions).toEqual([]);
    expect(reference.usageTerms).toBe('Rights Usage Terms (ref2023.2)');
    expect(reference.confidence).toBe('high');
  });

  it('images without restrictions stay without', () => {
    for (const f of [
      'Bush-dog.jpg',
      'getty.jpg',
      'cech.jpg',
      'reuters-GM1EA7M13RP01-thumb.jpg',
      'IPTC.jpg',
      'XMP.jpg',
      'PhotoMechanic.jpg',
    ]) {
      const input = imageInput(path.join(WIRE, f));
      expect({
        f,
        r: readRights(input).restrictions,
        n: readNotice(input),
        e: readRelease(input).embargoUntil,
      }).toEqual({ f, r: [], n: null, e: null });
    }
  });
});

describe('IPTC release and expiration written with exiftool', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-release-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads 2:30/2:35 and 2:37/2:38 through photowire’s IIM reader, and locks the photo until then', () => {
    const file = path.join(dir, 'embargoed.jpg');
    copyFileSync(path.join(WIRE, 'Bush-dog.jpg'), file);
    execFileSync('exiftool', [
      '-q',
      '-overwrite_original',
      '-IPTC:ReleaseDate=2024:03:10',
      '-IPTC:ReleaseTime=00:01:00+00:00',
      '-IPTC:ExpirationDate=2024:04:10',
      '-IPTC:ExpirationTime=23:59:00-05:00',
      '-IPTC:SpecialInstructions=EMBARGOED UNTIL 0001 GMT SUNDAY MARCH 10, 2024; NO SALES',
      file,
    ]);
    const input = imageInput(file);
    expect(input.iptc).toEqual({
      releaseDate: '20240310',
      releaseTime: '000100+0000',
      expirationDate: '20240410',
      expirationTime: '235900-0500',
    });
    const rel = readRelease(input);
    expect(rel.embargoUntil!.at).toBe('2024-03-10T00:01:00.000Z');
    expect(rel.found.map((f) => [f.type, f.source, f.at])).toEqual([
      ['embargo', 'iptc:releaseDate', '2024-03-10T00:01:00.000Z'],
      ['expiry', 'iptc:expirationDate', '2024-04-11T04:59:00.000Z'],
      ['embargo', 'iptc:specialInstructions', '2024-03-10T00:01:00.000Z'],
    ]);
    expect(rel.confidence).toBe('high');
    expect(releaseState(rel, '2024-03-09T12:00:00Z')).toMatchObject({
      state: 'embargoed',
      msLeft: 12 * 3_600_000 + 60_000,
    });
    expect(releaseState(rel, '2024-03-10T00:01:00Z').state).toBe('available');
    expect(releaseState(rel, '2024-04-11T05:00:00Z').state).toBe('expired');
    expect(readRights(input).restrictions).toEqual(['no-sales']);
  });
});

/** NewsML-G2 and NITF fields read from the safe XML tree, as the wiring will. */
function newsmlInput(file: string): ItemRightsInput {
  const root = parseXmlSafely(readFileSync(file, 'utf8'), file);
  const item = descendants(root, 'newsItem')[0] as XmlElement;
  const meta = xmlPath(item, 'itemMeta');
  const rights = xmlPath(item, 'rightsInfo');
  const texts: SourcedText[] = [];
  for (const el of descendants(rights, 'usageTerms')) texts.push({ source: 'newsml:usageTerms', text: text(el) ?? '' });
  for (const el of descendants(rights, 'copyrightNotice'))
    texts.push({ source: 'newsml:copyrightNotice', text: text(el) ?? '' });
  for (const el of descendants(meta, 'edNote')) texts.push({ source: 'newsml:edNote', text: text(el) ?? '' });
  const embargoed = xmlPath(meta, 'embargoed');
  return {
    texts,
    newsml: {
      guid: attr(item, 'guid'),
      version: attr(item, 'version'),
      pubStatus: attr(xmlPath(meta, 'pubStatus'), 'qcode'),
      embargoed: embargoed ? (text(embargoed) ?? '') : undefined,
      signals: descendants(meta, 'signal').map((s) => attr(s, 'qcode') ?? ''),
    },
  };
}

describe('the shared NewsML-G2 and NITF files', () => {
  it('dpa: usage terms by contract only; a usable item is no notice', () => {
    const input = newsmlInput(path.join(REAL, 'dpa/urn_newsml_dpa.com_20090101_171117-90-000086.xml'));
    expect(readRights(input).restrictions).toEqual(['permission-required']);
    expect(readRights(input).usageTerms).toBe('Nutzung nur nach vertraglicher Vereinbarung');
    expect(readNotice(input)).toBeNull();
    expect(readRelease(input).embargoUntil).toBeNull();
  });

  it('Reuters picture.xml: "Click For Restrictions" is boilerplate, edStat signals are not corrections', () => {
    const input = newsmlInput(path.join(REAL, 'newsml-g2/picture.xml'));
    const r = readRights(input);
    expect(r.restrictions).toEqual([]);
    expect(r.confidence).toBe('high');
    expect(input.newsml!.signals).toContain('edStat:N');
    expect(readNotice(input)).toBeNull();
  });

  it('the same Reuters item cancelled: a kill of its guid', () => {
    const input = newsmlInput(path.join(REAL, 'newsml-g2/picture.xml'));
    const cancelled = { ...input, newsml: { ...input.newsml, pubStatus: 'stat:canceled' } };
    const n = readNotice(cancelled);
    expect(n).toMatchObject({
      kind: 'kill',
      targets: [input.newsml!.guid],
      selfTargeted: true,
      source: 'newsml:pubStatus',
    });
  });

  it('nitf-fishing.xml: management-status canceled, date.release and date.expire', () => {
    const file = path.join(REAL, 'nitf/nitf-fishing.xml');
    const docdata = descendants(parseXmlSafely(readFileSync(file, 'utf8'), file), 'docdata')[0];
    const rights = descendants(docdata, 'doc.rights')[0];
    const input: ItemRightsInput = {
      texts: [
        { source: 'nitf:ed-msg', text: attr(descendants(docdata, 'ed-msg')[0], 'info') ?? '' },
        { source: 'nitf:doc.rights', text: `limitations: ${attr(rights, 'limitations')}` },
        { source: 'nitf:doc.copyright', text: attr(descendants(docdata, 'doc.copyright')[0], 'holder') ?? '' },
      ],
      nitf: {
        docId: attr(descendants(docdata, 'doc-id')[0], 'id-string'),
        managementStatus: attr(docdata, 'management-status'),
        managementDocIdref: attr(docdata, 'management-doc-idref'),
        managementIdrefStatus: attr(docdata, 'management-idref-status'),
        dateRelease: attr(descendants(docdata, 'date.release')[0], 'norm'),
        dateExpire: attr(descendants(docdata, 'date.expire')[0], 'norm'),
      },
    };
    expect(readNotice(input)).toMatchObject({
      kind: 'kill',
      targets: ['iptc.321656141.b', 'iptc.321656141.a'],
      source: 'nitf:management-status',
    });
    const rel = readRelease(input);
    expect([rel.embargoUntil!.at, rel.expires!.at]).toEqual(['2002-02-26T14:30:00.000Z', '2012-02-26T14:30:00.000Z']);
    expect(releaseState(rel, '2024-01-01T00:00:00Z').state).toBe('expired');
    expect(readRights(input).restrictions).toEqual([]);
  });
});
