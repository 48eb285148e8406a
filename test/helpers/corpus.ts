import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';

/**
 * A generated bad-input corpus: every file is made here from sharp and a few byte patches,
 * nothing is downloaded. Each entry says what a user must see for it: an ok record, or a failed
 * record with a stable error code.
 */

/** A small flat-colour JPEG (fast to make, decodes everywhere). */
export async function tinyJpeg(
  width: number,
  height: number,
  rgb: [number, number, number] = [180, 90, 40],
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/**
 * A valid little JPEG whose frame header (SOF) claims another size. libjpeg reads the header
 * without complaint, so only a pixel cap checked before decoding stops it.
 */
export async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await tinyJpeg(16, 16));
  for (let i = 2; i + 9 < jpeg.length;) {
    if (jpeg[i] !== 0xff) throw new Error('jpegDeclaring: lost the marker chain');
    const marker = jpeg[i + 1];
    const len = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
    i += 2 + len;
  }
  throw new Error('jpegDeclaring: no SOF marker');
}

/** A valid little PNG whose IHDR (with its CRC recomputed) claims another size. */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#446688' } })
      .png()
      .toBuffer(),
  );
  // Signature (8), then the IHDR chunk: length (4), type (4), width (4), height (4), ..., CRC.
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('pngDeclaring: no IHDR first');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  const dataLen = png.readUInt32BE(8);
  png.writeUInt32BE(crc32(png.subarray(12, 16 + dataLen)), 16 + dataLen);
  return png;
}

/**
 * An upright picture (top half red, bottom half blue, `width` x `height` as displayed) stored
 * turned a quarter left with EXIF Orientation 6, as cameras held upright write it.
 */
export async function exifRotatedJpeg(width: number, height: number): Promise<Buffer> {
  const top = await sharp({ create: { width, height: Math.floor(height / 2), channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  const upright = await sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([{ input: top, top: 0, left: 0 }])
    .png()
    .toBuffer();
  // Orientation 6 means "rotate 90 clockwise to display", so store it rotated 90 counter-clockwise.
  const stored = await sharp(upright).rotate(270).png().toBuffer();
  return sharp(stored).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer();
}

export async function cmykJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: '#d01010' } })
    .toColourspace('cmyk')
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A JPEG carrying an IIM caption, written in UTF-8 (with 1:90 saying so) or in Latin-1 (no 1:90). */
export async function jpegWithIimCaption(caption: string, utf8: boolean, byline = 'JANE DOE'): Promise<Buffer> {
  return insertIptcIntoJpeg(
    await tinyJpeg(64, 48, [30, 120, 60]),
    buildIimBlock({ caption, byline: [byline], credit: 'AFP' }, { utf8 }),
  );
}

export type Expect = { ok: true } | { code: string };

export interface CorpusLine {
  /** What the line tests, for test names and RELIABILITY.md. */
  label: string;
  /** The raw line of the manifest (bytes, since some lines are deliberately not UTF-8). */
  raw: Buffer;
  expect: Expect;
}

export interface ManifestCorpus {
  dir: string;
  manifest: string;
  /** The manifest's item lines, in order; `lineNo` is the 1-based line in the file. */
  lines: Array<CorpusLine & { lineNo: number }>;
  /** A valid JPEG outside the feed folder that three lines try to reach; it must never be stored. */
  outsideJpeg: string;
  captions: {
    latin1: string;
    utf8: string;
    big: string;
    arabic: string;
    arabicNear: string;
    hebrewEmoji: string;
    emojiOnly: string;
  };
  /** Displayed size of the EXIF-rotated photo. */
  rotated: { file: string; width: number; height: number };
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8');

/**
 * Write a feed folder holding an NDJSON manifest whose every line is one case of bad (or merely
 * unusual) input, with the files they name. `outsideDir` must not be inside `dir`.
 * Expects a size cap of 1 MB (PHOTOWIRE_MAX_FILE_MB=1) for the "over the cap" line.
 */
export async function writeManifestCorpus(dir: string, outsideDir: string): Promise<ManifestCorpus> {
  mkdirSync(dir, { recursive: true });
  mkdirSync(outsideDir, { recursive: true });
  const put = (name: string, bytes: Buffer | string) => writeFileSync(path.join(dir, name), bytes);

  const good = await tinyJpeg(200, 150);
  const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#5a7d9a' } })
    .composite([{ input: await tinyJpeg(120, 80, [240, 240, 20]), top: 60, left: 90 }])
    .jpeg({ quality: 85 })
    .toBuffer();
  put('good.jpg', good);
  put('empty.jpg', Buffer.alloc(0));
  put('truncated.jpg', photo.subarray(0, Math.floor(photo.length / 2)));
  put(
    'error-page.jpg',
    '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>Not Found</body></html>\n',
  );
  put('notes.jpg', 'Photographer notes: call the desk before 6pm.\n');
  const colour = sharp({ create: { width: 240, height: 160, channels: 3, background: '#2e8b57' } });
  put('photo.png', await colour.clone().png().toBuffer());
  put('photo.tiff', await colour.clone().tiff({ compression: 'lzw' }).toBuffer());
  put('photo.webp', await colour.clone().webp({ quality: 80 }).toBuffer());
  put('cmyk.jpg', await cmykJpeg());
  put('bomb.jpg', await jpegDeclaring(50_000, 50_000));
  put('bomb.png', await pngDeclaring(50_000, 50_000));
  // Valid JPEG followed by junk: the cap must refuse it by its size, before reading it.
  put('oversize.jpg', Buffer.concat([good, Buffer.alloc(1_300_000, 0x41)]));
  put('rotated.jpg', await exifRotatedJpeg(300, 400));
  const captions = {
    latin1: 'Zürich: Besucher im Café am Bürkliplatz, 3. März 2026. Ça coûte 5 €? Non: £5 ¼ ½ ¾ ß ÿ',
    utf8: 'Łódź, Ελλάδα, 東京, Кыїў: «Ǆemal» – a wire caption in four scripts',
    big: ('A very long caption for stress. ' + 'Words repeat without end in this caption. ')
      .repeat(Math.ceil(1_048_576 / 74))
      .slice(0, 1_048_576),
    arabic:
      'متظاهرون يتجمعون في ساحة التحرير في القاهرة يوم الجمعة للمطالبة بإصلاحات سياسية واقتصادية، بينما تنتشر قوات الأمن في الشوارع المحيطة بالساحة وتغلق الطرق المؤدية إلى مباني الحكومة والبرلمان في وسط المدينة',
    // The same caption resent with a typo (تحرير spelt تحريز): the same subject about the same picture.
    arabicNear:
      'متظاهرون يتجمعون في ساحة التحريز في القاهرة يوم الجمعة للمطالبة بإصلاحات سياسية واقتصادية، بينما تنتشر قوات الأمن في الشوارع المحيطة بالساحة وتغلق الطرق المؤدية إلى مباني الحكومة والبرلمان في وسط المدينة',
    hebrewEmoji: 'אוהדים חוגגים ברחובות תל אביב אחרי הניצחון 🎉🇮🇱⚽ ליל שבת',
    emojiOnly: '📸🔥🔥',
  };
  put('latin1.jpg', await jpegWithIimCaption(captions.latin1, false));
  put('utf8.jpg', await jpegWithIimCaption(captions.utf8, true));
  const outsideJpeg = path.join(outsideDir, 'outside.jpg');
  writeFileSync(outsideJpeg, await tinyJpeg(90, 60, [10, 200, 10]));
  symlinkSync(outsideJpeg, path.join(dir, 'linked.jpg'));

  const lines: CorpusLine[] = [
    {
      label: 'a good photo',
      raw: json({ id: 'ok-1', caption: 'Firefighters tackle a blaze in a warehouse in Leeds.', image: 'good.jpg' }),
      expect: { ok: true },
    },
    {
      label: 'a zero-byte JPEG',
      raw: json({ id: 'empty', caption: 'Empty file', image: 'empty.jpg' }),
      expect: { code: 'IMAGE_CORRUPT' },
    },
    {
      label: 'a truncated JPEG',
      raw: json({ id: 'trunc', caption: 'Half a photo', image: 'truncated.jpg' }),
      expect: { code: 'IMAGE_CORRUPT' },
    },
    {
      label: 'an HTML error page named .jpg',
      raw: json({ id: 'html', caption: 'Not a photo', image: 'error-page.jpg' }),
      expect: { code: 'IMAGE_UNSUPPORTED' },
    },
    {
      label: 'a text file named .jpg',
      raw: json({ id: 'text', caption: 'Not a photo either', image: 'notes.jpg' }),
      expect: { code: 'IMAGE_UNSUPPORTED' },
    },
    { label: 'a PNG', raw: json({ id: 'png', caption: 'A PNG photo', image: 'photo.png' }), expect: { ok: true } },
    { label: 'a TIFF', raw: json({ id: 'tiff', caption: 'A TIFF photo', image: 'photo.tiff' }), expect: { ok: true } },
    { label: 'a WebP', raw: json({ id: 'webp', caption: 'A WebP photo', image: 'photo.webp' }), expect: { ok: true } },
    {
      label: 'a CMYK JPEG',
      raw: json({ id: 'cmyk', caption: 'A CMYK photo from a print archive', image: 'cmyk.jpg' }),
      expect: { ok: true },
    },
    {
      label: 'a JPEG declaring 50,000 x 50,000 pixels',
      raw: json({ id: 'bomb-jpg', caption: 'Pixel bomb', image: 'bomb.jpg' }),
      expect: { code: 'IMAGE_TOO_LARGE' },
    },
    {
      label: 'a PNG declaring 50,000 x 50,000 pixels',
      raw: json({ id: 'bomb-png', caption: 'Pixel bomb', image: 'bomb.png' }),
      expect: { code: 'IMAGE_TOO_LARGE' },
    },
    {
      label: 'a file over the size cap',
      raw: json({ id: 'oversize', caption: 'Too big', image: 'oversize.jpg' }),
      expect: { code: 'IMAGE_TOO_LARGE' },
    },
    {
      label: 'an EXIF-rotated JPEG',
      raw: json({ id: 'rotated', caption: 'Shot with the camera upright', image: 'rotated.jpg' }),
      expect: { ok: true },
    },
    { label: 'an IIM caption in Latin-1', raw: json({ id: 'latin1', image: 'latin1.jpg' }), expect: { ok: true } },
    { label: 'an IIM caption in UTF-8', raw: json({ id: 'utf8', image: 'utf8.jpg' }), expect: { ok: true } },
    {
      label: 'a line that is not valid UTF-8',
      raw: Buffer.concat([
        Buffer.from('{"id":"bad-utf8","caption":"Caf'),
        Buffer.from([0xe9, 0xff, 0xfe]),
        Buffer.from(' au lait"}'),
      ]),
      expect: { code: 'FEED_MALFORMED' },
    },
    {
      label: 'a line that is not JSON',
      raw: Buffer.from('{"id": "broken", "caption": "no closing brace"'),
      expect: { code: 'FEED_MALFORMED' },
    },
    {
      label: 'a JSON line that is not an object',
      raw: Buffer.from('["an", "array"]'),
      expect: { code: 'ITEM_INVALID' },
    },
    { label: 'a field of the wrong type', raw: json({ id: 'typed', caption: 42 }), expect: { code: 'ITEM_INVALID' } },
    {
      label: 'an id used twice (second use)',
      raw: json({ id: 'ok-1', caption: 'Same id as the first line' }),
      expect: { code: 'ITEM_DUPLICATE_ID' },
    },
    {
      label: 'an image path with ../../etc/passwd',
      raw: json({ id: 'dotdot', caption: 'Escape', image: '../../etc/passwd' }),
      expect: { code: 'PATH_OUTSIDE_FEED' },
    },
    {
      label: 'an absolute image path (a real photo outside)',
      raw: json({ id: 'abs', caption: 'Escape', image: outsideJpeg }),
      expect: { code: 'PATH_OUTSIDE_FEED' },
    },
    {
      label: 'an absolute /etc/passwd',
      raw: json({ id: 'abs-passwd', caption: 'Escape', image: '/etc/passwd' }),
      expect: { code: 'PATH_OUTSIDE_FEED' },
    },
    {
      label: 'a symlink in the folder pointing outside',
      raw: json({ id: 'link', caption: 'Escape by symlink', image: 'linked.jpg' }),
      expect: { code: 'PATH_OUTSIDE_FEED' },
    },
    {
      label: 'an image that does not exist',
      raw: json({ id: 'missing', caption: 'Gone', image: 'missing.jpg' }),
      expect: { code: 'IMAGE_NOT_FOUND' },
    },
    { label: 'a 1 MB caption', raw: json({ id: 'big', caption: captions.big }), expect: { ok: true } },
    { label: 'an empty caption', raw: json({ id: 'blank', caption: '' }), expect: { ok: true } },
    { label: 'an Arabic caption', raw: json({ id: 'ar-1', caption: captions.arabic }), expect: { ok: true } },
    {
      label: 'a near-identical Arabic caption',
      raw: json({ id: 'ar-2', caption: captions.arabicNear }),
      expect: { ok: true },
    },
    {
      label: 'a Hebrew caption with emoji',
      raw: json({ id: 'he', caption: captions.hebrewEmoji }),
      expect: { ok: true },
    },
    { label: 'an emoji-only caption', raw: json({ id: 'emoji', caption: captions.emojiOnly }), expect: { ok: true } },
  ];

  // A blank line in the middle must not shift the line numbers of the lines after it.
  const withLines: ManifestCorpus['lines'] = [];
  const chunks: Buffer[] = [];
  let lineNo = 0;
  lines.forEach((l, i) => {
    if (i === 5) {
      chunks.push(Buffer.from('\n'));
      lineNo++;
    }
    chunks.push(l.raw, Buffer.from('\n'));
    lineNo++;
    withLines.push({ ...l, lineNo });
  });
  const manifest = path.join(dir, 'corpus.ndjson');
  writeFileSync(manifest, Buffer.concat(chunks));
  return {
    dir,
    manifest,
    lines: withLines,
    outsideJpeg,
    captions,
    rotated: { file: path.join(dir, 'rotated.jpg'), width: 300, height: 400 },
  };
}

/**
 * Feeds that are refused whole (the file itself is bad), each with the code a user must see.
 * XML fixtures come from test/fixtures/feeds.
 */
export function writeRefusedFeeds(
  dir: string,
  fixturesDir: string,
): Array<{ label: string; file: string; code: string }> {
  mkdirSync(dir, { recursive: true });
  const out = [
    {
      label: 'a JSON manifest that is not valid UTF-8',
      name: 'latin1.json',
      bytes: Buffer.concat([Buffer.from('[{"caption":"Caf'), Buffer.from([0xe9]), Buffer.from('"}]\n')]),
      code: 'FEED_MALFORMED',
    },
    {
      label: 'a JSON manifest with a syntax error',
      name: 'broken.json',
      bytes: Buffer.from('[\n  {"caption": "one"},\n  {"caption": "two",}\n]\n'),
      code: 'FEED_MALFORMED',
    },
    {
      label: 'a text file that is no feed at all',
      name: 'readme.txt',
      bytes: Buffer.from('Nothing to see here.\nJust two lines.\n'),
      code: 'FEED_UNKNOWN_FORMAT',
    },
  ].map((f) => {
    const file = path.join(dir, f.name);
    writeFileSync(file, f.bytes);
    return { label: f.label, file, code: f.code };
  });
  out.push(
    { label: 'XML with an external entity (XXE)', file: path.join(fixturesDir, 'xxe.xml'), code: 'XML_ENTITY_REFUSED' },
    {
      label: 'XML with a billion-laughs entity bomb',
      file: path.join(fixturesDir, 'billion-laughs.xml'),
      code: 'XML_ENTITY_REFUSED',
    },
  );
  return out;
}

/**
 * `count` distinct photographic JPEGs of `width` x `height`, quickly: one small synthetic photo
 * scaled up, each copy marked with its own coloured block so every file has its own bytes and hash.
 * (Generating big synthetic photos pixel by pixel in the test process is several times slower.)
 */
export async function photoVariants(count: number, width: number, height: number, seed = 1): Promise<Buffer[]> {
  const { syntheticPhoto } = await import('../../src/sample/syntheticPhoto');
  const base = await sharp(await syntheticPhoto({ width: Math.ceil(width / 4), height: Math.ceil(height / 4), seed }))
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const mark = await sharp({
      create: {
        width: 64,
        height: 64,
        channels: 3,
        background: { r: (i * 53) % 256, g: (i * 97) % 256, b: (i * 151) % 256 },
      },
    })
      .png()
      .toBuffer();
    out.push(
      await sharp(base.data, { raw: base.info })
        .composite([{ input: mark, left: (i * 67) % (width - 64), top: (i * 41) % (height - 64) }])
        .jpeg({ quality: 88 })
        .toBuffer(),
    );
  }
  return out;
}
