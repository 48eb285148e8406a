import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { readImageMetadata, readMetadataBlocks } from '../../../../src/core/metadata';
import { readIimTime } from '../../../../src/core/metadata/dates';

const GENERATED = path.resolve(__dirname, '../../../fixtures/real-wire/generated');
const REAL_WIRE = path.resolve(__dirname, '../../../fixtures/real-wire/images');

describe('containers read by hand', () => {
  it('big-endian TIFF: libvips hands over the IIM word-swapped; both the hand reader and the block reader read it', async () => {
    const bytes = fs.readFileSync(path.join(GENERATED, 'be-iptc.tif'));
    const fromSharp = (await sharp(bytes).metadata()).iptc!;
    expect(fromSharp[0]).not.toBe(0x1c); // the bug: "00 5a 01 1c ..." instead of "1c 01 5a 00"
    expect(readMetadataBlocks({ iptc: fromSharp }).iptc).toMatchObject({
      caption: 'be TIFF caption',
      credit: 'be Agency',
    });
    expect(readImageMetadata(bytes).iptc).toMatchObject({
      caption: 'be TIFF caption',
      byline: ['Ann be'],
      city: 'Zürich',
      transmissionReference: 'be-123',
    });
  });

  it("Exiv2's Reagan.tiff (big-endian) gives its caption, by-line and credit", () => {
    const r = readImageMetadata(fs.readFileSync(path.join(REAL_WIRE, 'exiv2-Reagan.tiff')));
    expect(r.iptc.caption).toMatch(/^040621-N-6536T-062\nUSS Ronald Reagan/);
    expect(r.iptc).toMatchObject({
      credit: 'U.S Navy',
      source: 'Navy Visual News Service',
      city: 'Straits of Magellan',
    });
  });

  it('PNG: raw profile IIM (exiv2 imagemagick.png) and XMP after IDAT', () => {
    expect(readImageMetadata(fs.readFileSync(path.join(REAL_WIRE, 'exiv2-imagemagick.png'))).iptc).toMatchObject({
      credit: 'Spielberg',
      city: 'Paris',
      copyright: 'E.T.',
    });
    expect(readImageMetadata(fs.readFileSync(path.join(GENERATED, 'xmp-after-idat.png'))).iptc).toMatchObject({
      caption: 'XMP after the image data',
      credit: 'After IDAT',
      byline: ['Pat Late'],
    });
  });

  it('PNG: IIM written by ExifTool (a zTXt raw profile named "IPTC profile" holding a Photoshop IRB)', () => {
    const r = readImageMetadata(fs.readFileSync(path.join(GENERATED, 'exiftool-iptc.png')));
    expect(r.iptc).toMatchObject({
      caption: 'ExifTool PNG caption',
      byline: ['Eve Tool'],
      credit: 'ET Agency',
      city: 'Bergen',
      keywords: ['png'],
    });
    expect(r.warnings).toEqual([]);
  });

  it('BigTIFF (magic 43, 64-bit offsets), either byte order: its XMP and IIM are read as from a classic TIFF', () => {
    for (const name of ['bigtiff-le.tif', 'bigtiff-be.tif']) {
      const r = readImageMetadata(fs.readFileSync(path.join(GENERATED, name)));
      expect([name, r.iptc]).toEqual([
        name,
        expect.objectContaining({ caption: 'BigTIFF caption', keywords: ['big'] }),
      ]);
      expect(r.warnings.filter((w) => /not a JPEG, TIFF/.test(w))).toEqual([]);
    }
  });

  it('IPTC digest: current -> XMP wins, stale or absent -> IIM wins', () => {
    const read = (f: string) => readImageMetadata(fs.readFileSync(path.join(GENERATED, f))).iptc;
    expect(read('digest-current.jpg')).toMatchObject({
      caption: 'XMP caption',
      headline: 'XMP headline',
      keywords: ['xmp'],
      credit: 'IIM credit',
    });
    expect(read('digest-stale.jpg')).toMatchObject({
      caption: 'IIM caption',
      headline: 'IIM headline',
      keywords: ['iim'],
    });
    expect(read('no-digest.jpg')).toMatchObject({ caption: 'IIM caption', city: 'IIM city' });
  });

  it('IIM times: fractions kept, impossible zones dropped with a reason', () => {
    expect(readIimTime('135926.054-0600')).toEqual({ iso: '13:59:26.054-06:00' });
    expect(readIimTime('135926-1057')).toEqual({
      iso: '13:59:26',
      problem: expect.stringMatching(/impossible time zone -10:57/),
    });
    expect(readImageMetadata(fs.readFileSync(path.join(GENERATED, 'iim-time-fraction.jpg'))).iptc.dateCreated).toBe(
      '2024-05-30T13:59:26.054-06:00',
    );
  });
});
