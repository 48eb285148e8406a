import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import expected from '../../../fixtures/exiftool/expected.json';
import {
  EXIFTOOL_ARGS,
  EXIFTOOL_EXIF_ARGS,
  EXIFTOOL_MWG_ARGS,
  mapExiftoolJson,
} from '../../../fixtures/exiftool/mapExiftool';
import {
  buildIimBlock,
  buildXmpPacket,
  insertIptcIntoJpeg,
  insertXmpIntoJpeg,
  readImageMetadataBySource,
} from '../../../../src/core/metadata';
import { UTF8_DECLARATION, WIRE_IMAGES, app13, ds, irbResource, seg, wireImageNames, xmpPacket } from './helpers';

const probe = spawnSync('exiftool', ['-ver'], { encoding: 'utf8' });
const exiftoolVersion = probe.status === 0 ? probe.stdout.trim() : null;
const title = exiftoolVersion
  ? `live ExifTool ${exiftoolVersion}`
  : 'live ExifTool (SKIPPED: exiftool is not on PATH; install libimage-exiftool-perl to run these)';
const maybe = exiftoolVersion ? describe : describe.skip;

function exiftool(files: string[]) {
  const run = (args: string[]) =>
    execFileSync('exiftool', [...args, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return mapExiftoolJson(run(EXIFTOOL_ARGS), run(EXIFTOOL_MWG_ARGS), run(EXIFTOOL_EXIF_ARGS));
}

function compare(file: string, want: ReturnType<typeof exiftool>[string]): void {
  const got = readImageMetadataBySource(fs.readFileSync(file));
  const { mwg: _mwg, ...rest } = want;
  expect({
    file: path.basename(file),
    iim: got.bySource.iim,
    xmp: got.bySource.xmp,
    exif: got.bySource.exif,
    digest: got.digest,
    merged: got.iptc,
  }).toEqual({
    file: path.basename(file),
    ...rest,
  });
}

const imagesIn = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => /\.(jpe?g|tiff?|png|webp)$/i.test(f))
    .sort()
    .map((f) => path.join(dir, f));

maybe(title, () => {
  it('agrees with ExifTool on every wire-image fixture', () => {
    const names = wireImageNames();
    const live = exiftool(names.map((n) => path.join(WIRE_IMAGES, n)));
    expect(Object.keys(live).sort()).toEqual(names);
    for (const name of names) compare(path.join(WIRE_IMAGES, name), live[name]);
  });

  it.each([
    ['real-wire', path.resolve(__dirname, '../../../fixtures/real-wire/images')],
    ['generated', path.resolve(__dirname, '../../../fixtures/real-wire/generated')],
  ])('agrees with ExifTool on every %s image (TIFF, PNG, JPEG)', (_label, dir) => {
    const files = imagesIn(dir);
    const live = exiftool(files);
    expect(Object.keys(live)).toHaveLength(files.length);
    for (const file of files) compare(file, live[path.basename(file)]);
  });

  it('has a committed expected.json that is still what this ExifTool says', () => {
    if (expected.exiftoolVersion !== exiftoolVersion) {
      // another ExifTool may legitimately differ; the test above already compared live values
      console.warn(
        `expected.json was generated with ExifTool ${expected.exiftoolVersion}, this is ${exiftoolVersion}: not compared`,
      );
      return;
    }
    const live = exiftool(wireImageNames().map((n) => path.join(WIRE_IMAGES, n)));
    expect(live).toEqual(expected.files);
  });

  describe('on crafted files', () => {
    let dir: string;
    const written: string[] = [];
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-exiftool-'));
      const jpeg = await sharp({
        create: { width: 48, height: 32, channels: 3, background: { r: 10, g: 120, b: 200 } },
      })
        .jpeg()
        .toBuffer();
      const withIim = (iim: Buffer) => insertIptcIntoJpeg(jpeg, iim);
      const fakeXmpApp1 = (prefix: string, xml: Buffer) =>
        seg(0xe1, Buffer.concat([Buffer.from(prefix, 'latin1'), xml]));
      const files: Record<string, Buffer> = {
        'latin1.jpg': withIim(
          buildIimBlock(
            {
              caption: '\u201cCafé\u201d — Zoë’s © €5 œ Ÿ',
              byline: ['Åsa', 'Jürgen'],
              city: 'Montréal',
              dateCreated: '2024-05-30T10:52:06-04:00',
            },
            { utf8: false },
          ),
        ),
        'utf8.jpg': withIim(
          buildIimBlock({ caption: 'Łódź, 北京, Москва 📷', keywords: ['Zoë', '李明'] }, { utf8: true }),
        ),
        'undeclared-utf8.jpg': withIim(
          Buffer.concat([ds(2, 90, 'Montréal', true), ds(2, 120, 'naïve “quotes”', true)]),
        ),
        'late-charset.jpg': withIim(
          Buffer.concat([ds(2, 0, Buffer.from([0, 4])), UTF8_DECLARATION, ds(2, 90, 'Kraków', true)]),
        ),
        'duplicates.jpg': withIim(
          Buffer.concat([
            ds(2, 110, 'First credit'),
            ds(2, 110, 'Second credit'),
            ds(2, 122, 'ab'),
            ds(2, 122, 'cd'),
            ds(2, 25, ''),
            ds(2, 25, 'kw'),
          ]),
        ),
        'partial-date.jpg': withIim(Buffer.concat([ds(2, 55, '20140700'), ds(2, 60, '130003')])),
        'nul-terminated.jpg': withIim(Buffer.concat([ds(2, 105, 'Headline\0\0'), ds(2, 120, '  spaced  \n')])),
        'big-irb.jpg': withIim(
          buildIimBlock(
            { keywords: Array.from({ length: 1500 }, (_, i) => `keyword ${i} ${'k'.repeat(40)}`) },
            { utf8: true },
          ),
        ),
        'cut-credit.jpg': insertXmpIntoJpeg(
          withIim(buildIimBlock({ credit: '©1985 David Riecks: www.riecks.com', source: 'Short' }, { utf8: false })),
          buildXmpPacket({
            credit: '©1985 David Riecks: www.riecks.com',
            source: 'Short but longer in XMP',
            city: 'XMP city',
          }),
        ),
        'xmp-utf16le.jpg': Buffer.concat([
          jpeg.subarray(0, 2),
          fakeXmpApp1(
            'http://ns.adobe.com/xap/1.0/\0',
            Buffer.from(xmpPacket('<photoshop:Credit>Crédit UTF-16</photoshop:Credit>'), 'utf16le'),
          ),
          jpeg.subarray(2),
        ]),
        'xmp-nonstandard.jpg': Buffer.concat([
          jpeg.subarray(0, 2),
          fakeXmpApp1(
            'XMP\0://ns.adobe.com/xap/1.0/\0',
            Buffer.from(xmpPacket('<photoshop:Source>Behind a bad header</photoshop:Source>')),
          ),
          jpeg.subarray(2),
        ]),
        'xmp-shapes.jpg': insertXmpIntoJpeg(
          jpeg,
          xmpPacket(
            [
              '<dc:description><rdf:Alt><rdf:li xml:lang="fr">Légende</rdf:li><rdf:li xml:lang="de">Bild</rdf:li></rdf:Alt></dc:description>',
              '<dc:Rights>Capital R</dc:Rights>',
              '<ps:Headline>  other prefix &amp; spaces  </ps:Headline>',
              '<photoshop:DateCreated>2015-01-22T00:00:00 +00:00</photoshop:DateCreated>',
              '<dc:subject><rdf:Bag><rdf:li>one</rdf:li><rdf:li></rdf:li><rdf:li>three</rdf:li></rdf:Bag></dc:subject>',
            ].join(''),
            'xmlns:ps="http://ns.adobe.com/photoshop/1.0/"',
          ).replace('rdf:about=""', 'rdf:about="" photoshop:City="Attr &lt;city&gt;"'),
        ),
        'two-packets.jpg': Buffer.concat([
          jpeg.subarray(0, 2),
          fakeXmpApp1(
            'http://ns.adobe.com/xap/1.0/\0',
            Buffer.from(buildXmpPacket({ headline: 'First', city: 'Only first' })),
          ),
          fakeXmpApp1('http://ns.adobe.com/xap/1.0/\0', Buffer.from(buildXmpPacket({ headline: 'Second' }))),
          jpeg.subarray(2),
        ]),
        'two-iptc-blocks.jpg': Buffer.concat([
          jpeg.subarray(0, 2),
          app13(irbResource(0x0404, ds(2, 110, 'First block'))),
          app13(irbResource(0x0404, ds(2, 110, 'Second block'))),
          jpeg.subarray(2),
        ]),
      };
      for (const [name, bytes] of Object.entries(files)) {
        fs.writeFileSync(path.join(dir, name), bytes);
        written.push(path.join(dir, name));
      }
    });
    afterAll(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('reads what ExifTool reads from files our writer and hand-made segments produce', () => {
      const live = exiftool(written);
      expect(Object.keys(live)).toHaveLength(written.length);
      for (const file of written) compare(file, live[path.basename(file)]);
    });
  });
});
