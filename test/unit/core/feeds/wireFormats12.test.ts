import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseFeedBytes } from '../../../../src/adapters/feeds/loadFeed';
import { localWireXmlOptions } from '../../../../src/adapters/feeds/wireXmlRefs';
import { decodeFeedText, decodeWireText } from '../../../../src/core/feeds/decodeFeedText';
import { parseWireXml } from '../../../../src/core/feeds/xml/parseWireXml';
import { MAX_WIRE_MESSAGES } from '../../../../src/core/feeds/textWire';
import { makeTmpDir, removeDir } from '../../../helpers/testEnv';

/**
 * The formats the wires still send (issue 28 item 2), on real files (test/fixtures/wire-formats/ORIGIN.md):
 * EFE's NewsML 1.2 multimedia item, AFP's NewsML 1.2 text item that declares ISO-8859-1 and is UTF-8,
 * dpa's IPTC 7901 and AP's ANPA 1312 messages; and UTF-16 or a declared charset for every XML format.
 */
const WIRE = path.resolve(__dirname, '../../../fixtures/wire-formats');
const FEEDS = path.resolve(__dirname, '../../../fixtures/feeds');
const bytes = (dir: string, name: string) => readFileSync(path.join(dir, name));

const EFE_CAPTION = 'Agentes de bolsa realizan su trabajo en el parqué de Fráncfort, en Alemania. EFE/Archivo';
const EFE_GUID = 'urn:newsml:multimedia.efeservicios.com:20150924T180800+0000:2721344:2';

describe('NewsML 1.2 (EFE multimedia item)', () => {
  const feed = path.join(WIRE, 'efe-newsml12-photo.xml');
  let parsed: ReturnType<typeof parseFeedBytes>;
  beforeAll(() => {
    parsed = parseFeedBytes(bytes(WIRE, 'efe-newsml12-photo.xml'), feed);
  });

  it('gives one record per photo component with the caption, headline, place, date and ids a desk uses', () => {
    expect(parsed.format).toBe('newsml-1.2');
    expect(parsed.items).toHaveLength(2);
    const [efe, afp] = parsed.items;
    expect(efe).toMatchObject({
      captionRaw: EFE_CAPTION,
      agencyId: `${EFE_GUID}#11125521`,
      agencyVersion: '2',
      source: { format: 'newsml-1.2', position: 0 },
      iptc: {
        caption: EFE_CAPTION,
        headline: 'El DAX 30 de Fráncfort baja un 1,92 % al cierre',
        city: 'Fráncfort',
        source: 'Agencia EFE',
        dateCreated: '2015-09-24T18:07:00+00:00',
        urgency: '5',
        copyright: expect.stringMatching(/^© EFE 2015\. Está expresamente prohibida/),
      },
      wire: { sent: '2015-09-24T18:10:00+00:00', newsml: { guid: EFE_GUID, version: '2', pubStatus: 'usable' } },
    });
    // The same photo from the second provider is a second record, never the same id.
    expect(afp.iptc.source).toBe('AFP');
    expect(afp.agencyId).not.toBe(efe.agencyId);
    // The text components of the item are not pictures: no record for them.
    expect(parsed.items.map((i) => i.captionRaw)).toEqual([EFE_CAPTION, EFE_CAPTION]);
  });

  it('takes the largest rendition (800x523), and the file EFE names when it is beside the feed', () => {
    expect(parsed.items[0].image).toMatch(
      /^http:\/\/pb\.efeservicios\.com\/FormatosXML\/libreria\.aspx\?erVehZ.*vhA%3d%3d$/,
    );
    const dir = makeTmpDir('efe');
    try {
      const local = path.join(dir, 'efe.xml');
      copyFileSync(feed, local);
      writeFileSync(path.join(dir, '20150923-11125521w.jpg'), Buffer.from([0xff, 0xd8, 0xff]));
      const { items } = parseWireXml(readFileSync(local, 'utf8'), local, localWireXmlOptions(local));
      expect(items[0].image).toBe(path.join(dir, '20150923-11125521w.jpg'));
    } finally {
      removeDir(dir);
    }
  });

  it("AFP's photo item as sent (its DOCTYPE only names the NITF module, never read): the Caption and Preview components make one record", () => {
    const file = path.join(WIRE, 'afp-newsml12-photo-2001.xml');
    const { items } = parseFeedBytes(bytes(WIRE, 'afp-newsml12-photo-2001.xml'), file);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      agencyId: 'urn:NewsML:afp.com:20010705:010705102423.s27th00q:1',
      agencyVersion: '1',
      image: path.join(WIRE, 'SGE.SDI86.050701102222.photo00.default-384x256.jpg'),
      source: { line: 26 },
      iptc: {
        headline: 'Mode: la haute couture défile à Paris la semaine prochaine',
        copyright: '© 2001 AFP',
        byline: ['JEAN-PIERRE MULLER'],
        source: 'AFP',
        dateCreated: '2001-07-05T10:24:25Z',
      },
    });
    expect(items[0].captionRaw).toMatch(
      /^les deux frères stylistes Vartan et Guevork Tarloyan posent en compagnie d'un mannequin\n/,
    );
    expect(items[0].captionRaw).toMatch(/07 au 11 juillet 2001 à Paris\.$/);
    // "FRANCE (AFP)" names no city: none is made up.
    expect(items[0].iptc.city).toBeUndefined();
  });

  it('a text-only NewsML 1.2 item is a skipped text item, not FEED_UNKNOWN_FORMAT', () => {
    const afp = parseFeedBytes(bytes(WIRE, 'afp-newsml12-text-mislabelled.xml'), path.join(WIRE, 'afp.xml'));
    expect(afp).toMatchObject({ format: 'newsml-1.2', items: [], skipped: { text: 1 } });
    // Kyodo's, with the same external NITF module in its DOCTYPE: read, not refused
    const kyodo = parseFeedBytes(bytes(WIRE, 'kyodo-newsml12-text.xml'), path.join(WIRE, 'kyodo-newsml12-text.xml'));
    expect(kyodo).toMatchObject({ format: 'newsml-1.2', items: [], skipped: { text: 1 } });
  });

  it('a NewsML 1.2 DOCTYPE that declares anything but external modules is still refused', () => {
    const afp = bytes(WIRE, 'afp-newsml12-photo-2001.xml').toString('latin1');
    const bomb = afp.replace('%nitf; ]>', '%nitf; <!ENTITY lol "lol"> ]>');
    expect(() => parseFeedBytes(Buffer.from(bomb, 'latin1'), 'afp.xml')).toThrow(
      expect.objectContaining({ code: 'XML_ENTITY_REFUSED' }),
    );
  });
});

describe('charsets of XML feeds', () => {
  const efeUtf8 = readFileSync(path.join(WIRE, 'efe-newsml12-photo.xml'), 'utf8');
  const declare = (xml: string, encoding: string) => xml.replace('encoding="utf-8"', `encoding="${encoding}"`);
  const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
  const reference = (file: string) => parseFeedBytes(bytes(path.dirname(file), path.basename(file)), file).items;

  it.each([
    ['NewsML 1.2', path.join(WIRE, 'efe-newsml12-photo.xml')],
    ['NewsML-G2', path.join(FEEDS, 'newsml-g2-picture.xml')],
    ['NITF', path.join(FEEDS, 'nitf-picture.xml')],
  ])('%s in UTF-16 (LE with a BOM, BE declared without one) gives the same items as in UTF-8', (_format, file) => {
    const text = readFileSync(file, 'utf8');
    const asUtf16 = text.replace(/^(<\?xml[^>]*encoding=")[^"]*"/i, '$1UTF-16"');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(asUtf16, 'utf16le')]);
    const be = utf16be(asUtf16.startsWith('<?xml') ? asUtf16 : `<?xml version="1.0" encoding="UTF-16"?>\n${asUtf16}`);
    const expected = reference(file);
    expect(expected.length).toBeGreaterThan(0);
    for (const encoded of [le, be]) {
      const items = parseFeedBytes(encoded, file).items;
      expect(items.map((i) => [i.captionRaw, i.iptc.headline, i.iptc.city, i.agencyId])).toEqual(
        expected.map((i) => [i.captionRaw, i.iptc.headline, i.iptc.city, i.agencyId]),
      );
    }
  });

  it("a package's item file in UTF-16 is read too (dpa's real picture message, rewritten in UTF-16 beside the package)", () => {
    const dpa = path.resolve(
      __dirname,
      '../../../fixtures/shared/fixtures/real-wire/dpa/urn_newsml_dpa.com_20090101_171117-90-000086.xml',
    );
    const dir = makeTmpDir('pkg16');
    try {
      mkdirSync(path.join(dir, 'items'));
      const text = readFileSync(dpa, 'utf8').replace('encoding="UTF-8"', 'encoding="UTF-16"');
      writeFileSync(
        path.join(dir, 'items', 'dpa.xml'),
        Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
      );
      const guid = 'urn:newsml:dpa.com:20090101:171117-90-000086';
      const pkg = path.join(dir, 'package.xml');
      writeFileSync(
        pkg,
        `<packageItem xmlns="http://iptc.org/std/nar/2006-10-01/" guid="p" version="1"><itemMeta><itemClass qcode="ninat:composite"/></itemMeta>` +
          `<groupSet root="g"><group id="g"><itemRef residref="${guid}" href="items/dpa.xml" contenttype="application/vnd.iptc.g2.newsitem+xml"><itemClass qcode="ninat:picture"/></itemRef></group></groupSet></packageItem>`,
      );
      const direct = parseWireXml(readFileSync(dpa, 'utf8'), dpa).items[0];
      const { items, skipped } = parseWireXml(readFileSync(pkg, 'utf8'), pkg, localWireXmlOptions(pkg));
      // The package itself is listed as not a picture, as always; no picture is skipped.
      expect(skipped.map((x) => x.kind)).toEqual(['package']);
      expect(items.map((i) => [i.agencyId, i.captionRaw, i.iptc.headline])).toEqual([
        [guid, direct.captionRaw, direct.iptc.headline],
      ]);
      expect(direct.captionRaw.length).toBeGreaterThan(20);
    } finally {
      removeDir(dir);
    }
  });

  it('a declared single-byte charset (ISO-8859-15, ISO-8859-1) is honoured', () => {
    for (const encoding of ['ISO-8859-15', 'ISO-8859-1']) {
      const latin = Buffer.from(declare(efeUtf8, encoding), 'latin1');
      const { items, warnings } = parseFeedBytes(latin, path.join(WIRE, 'efe.xml'));
      expect(items[0].captionRaw).toBe(EFE_CAPTION);
      expect(items[0].iptc.city).toBe('Fráncfort');
      expect(warnings.filter((w) => /declares/.test(w))).toEqual([]);
    }
  });

  it("AFP's afp20.xml declares iso-8859-1 but is UTF-8: read as UTF-8, with a warning, not as mojibake", () => {
    const raw = bytes(WIRE, 'afp-newsml12-text-mislabelled.xml');
    const decoded = decodeFeedText(raw, 'afp20.xml');
    expect(decoded.text).toContain(
      "<HeadLine>Décès de Naomi Musenga: l'opératrice du Samu définitivement condamnée</HeadLine>",
    );
    expect(decoded.warning).toBe('afp20.xml: declares iso-8859-1 but its bytes are UTF-8; read as UTF-8');
    const parsed = parseFeedBytes(raw, 'afp20.xml');
    expect(parsed.warnings[0]).toBe(decoded.warning);
    // The same document really in ISO-8859-1, as declared: the same text, no warning.
    const latin = decodeFeedText(Buffer.from(decoded.text, 'latin1'), 'afp20.xml');
    expect(latin).toEqual({ text: decoded.text, encoding: 'windows-1252' });
  });

  it('an encoding photowire cannot decode is FEED_MALFORMED naming it', () => {
    const x = Buffer.from(declare(efeUtf8, 'x-mac-klingon'), 'latin1');
    expect(() => parseFeedBytes(x, 'k.xml')).toThrow(
      expect.objectContaining({
        code: 'FEED_MALFORMED',
        message: 'k.xml: declares the encoding "x-mac-klingon", which photowire cannot decode',
      }),
    );
  });
});

describe('IPTC 7901 (dpa) and ANPA 1312 (AP) text wires: one caption-only item per message', () => {
  it('dpa: slug, take, priority, category, headline, dateline in the caption, send time; the note to editors kept apart', () => {
    const file = path.join(WIRE, 'dpa-iptc7901-two-line.txt');
    const { format, items } = parseFeedBytes(bytes(WIRE, 'dpa-iptc7901-two-line.txt'), file);
    expect(format).toBe('iptc7901');
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item).toMatchObject({
      image: null,
      source: { file, position: 0, line: 1, format: 'iptc7901' },
      iptc: {
        headline: 'Peace talks on Yemen to take place in Sweden next month, Mattis says',
        objectName: 'Yemen/conflict',
        urgency: '3',
        category: 'i',
        transmissionReference: 'eca0124',
        source: 'dpa',
        city: 'Washington',
        specialInstructions: expect.stringMatching(
          /^EXTRA\n# Notebook\n\n## Internet links\n- \[DOD news\]\(http:\/\/dpaq\.de\/3UXnb\)$/,
        ),
      },
      wire: { sent: '2018-11-21T21:01:00Z' },
    });
    expect(item.captionRaw).toMatch(
      /^Washington \(dpa\) - US Defence Secretary Jim Mattis says he expects\nthe warring parties/,
    );
    expect(item.captionRaw).toMatch(/recent days it has decreased considerably\.$/);
  });

  it('a spool of two dpa messages is two items, each with its own line; the unpublishable note never reaches the caption', () => {
    const spool = Buffer.concat([bytes(WIRE, 'dpa-iptc7901-two-line.txt'), bytes(WIRE, 'dpa-iptc7901-four-line.txt')]);
    const { items } = parseFeedBytes(spool, 'spool.txt');
    expect(items.map((i) => [i.source.position, i.source.line, i.iptc.objectName])).toEqual([
      [0, 1, 'Yemen/conflict'],
      [1, 31, 'Switzerland/migration/UN'],
    ]);
    const four = items[1];
    expect(four.iptc).toMatchObject({
      headline: 'Switzerland joins list of countries resisting UN migration pact',
      byline: ['dpa correspondents'],
      urgency: '3',
    });
    expect(four.iptc.specialInstructions).toMatch(/^REFILE 1ST LEAD\n# Notebook/);
    expect(four.iptc.specialInstructions).toContain('## Editorial contacts');
    expect(four.captionRaw).toMatch(/^Geneva \(dpa\) - Switzerland is joining/);
    expect(four.captionRaw).toMatch(/Hungary, Israel, Poland and the United States\.$/);
    expect(four.captionRaw).not.toMatch(/Editorial contacts|Notebook|GMT Nov/);
    expect(four.wire).toEqual({ sent: '2018-11-21T23:22:00Z' });
  });

  it('AP ANPA 1312: headline, by-line, slug, priority and category from its heading lines, the story as caption', () => {
    const { items } = parseFeedBytes(bytes(WIRE, 'ap-anpa1312.tst'), 'ap.tst');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      source: { format: 'anpa1312' },
      iptc: {
        headline: 'For Argentine chemo patients, mirrors can hurt',
        byline: ['PAUL BYRNE and ALMUDENA CALATRAVA'],
        objectName: 'Argentina-CancerB',
        urgency: 'f',
        category: 'l',
        transmissionReference: 'W2870',
        specialInstructions: 'Eds: With AP Photos.',
        city: 'BUENOS AIRES',
        country: 'Argentina',
      },
      wire: { sent: '2013-11-13T15:09:00Z' },
    });
    expect(items[0].captionRaw).toMatch(/^BUENOS AIRES, Argentina \(AP\) _ For cancer patients dealing/);
    expect(items[0].captionRaw).toMatch(/APTN contributor Kacey Cherry in Buenos Aires helped with this story\.$/);
  });

  it('a message that is not UTF-8 is read as Latin-1 (Windows-1252), with a warning naming it', () => {
    // The dpa message with its headline in French as a Latin-1 sender writes it (é = 0xE9, ’ = 0x92).
    const dpa = bytes(WIRE, 'dpa-iptc7901-two-line.txt')
      .toString('latin1')
      .replace(
        'Peace talks on Yemen to take place in Sweden next month, Mattis says',
        'Pourparlers de paix sur le Yémen l\x92an prochain',
      );
    const { items, warnings } = parseFeedBytes(Buffer.from(dpa, 'latin1'), 'latin.txt');
    expect(items[0].iptc.headline).toBe('Pourparlers de paix sur le Yémen l’an prochain');
    expect(warnings).toEqual(['latin.txt:1: message 1 is not UTF-8; read as Latin-1 (Windows-1252)']);
    expect(decodeWireText(Buffer.from('Müller', 'utf8'))).toEqual({ text: 'Müller', encoding: 'utf-8' });
  });

  it('a spool is read up to 10,000 messages, the rest named in a warning; thousands of Latin-1 messages give 21 warning lines, not thousands', () => {
    const latin = Buffer.from(
      bytes(WIRE, 'dpa-iptc7901-two-line.txt').toString('latin1').replace('Mattis says', 'Mattis dit l\x92an'),
      'latin1',
    );
    const spool = Buffer.concat(Array.from({ length: MAX_WIRE_MESSAGES + 5 }, () => latin));
    const { items, warnings } = parseFeedBytes(spool, 'big.txt');
    expect(items).toHaveLength(MAX_WIRE_MESSAGES);
    expect(items[MAX_WIRE_MESSAGES - 1].iptc.headline).toBe(
      'Peace talks on Yemen to take place in Sweden next month, Mattis dit l’an',
    );
    expect(warnings[0]).toBe(
      `big.txt: ${MAX_WIRE_MESSAGES + 5} messages, over the cap of ${MAX_WIRE_MESSAGES}; the first ${MAX_WIRE_MESSAGES} are read`,
    );
    expect(warnings).toHaveLength(1 + 20 + 1);
    expect(warnings[21]).toBe(
      `big.txt: ... and ${MAX_WIRE_MESSAGES - 20} more messages read as Latin-1 (Windows-1252)`,
    );
  });

  it('a message without STX is an item that fails with FEED_MALFORMED, the others go on', () => {
    const broken = Buffer.concat([
      Buffer.from('\x01eca0001 4 rs 46  dpa 0027\nImpressum/\n'),
      bytes(WIRE, 'dpa-iptc7901-two-line.txt'),
    ]);
    const { items } = parseFeedBytes(broken, 'b.txt');
    expect(items.map((i) => i.error?.code ?? 'ok')).toEqual(['FEED_MALFORMED', 'ok']);
    expect(items[0].error?.message).toBe('b.txt:1: message 1: no STX: the message has a heading but no text');
  });
});
