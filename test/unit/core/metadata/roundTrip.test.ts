import sharp from 'sharp';
import {
  buildIimBlock,
  buildXmpPacket,
  insertIptcIntoJpeg,
  insertXmpIntoJpeg,
  parseIim,
  readImageMetadata,
  readMetadataBlocks,
} from '../../../../src/core/metadata';
import { InputError } from '../../../../src/core/errors';
import type { IptcFields } from '../../../../src/schemas/feedItem';
import { app13, irbResource, seg, wireImage } from './helpers';

async function photo(width = 96, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 180, g: 90, b: 40 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function pixels(jpeg: Buffer): Promise<Buffer> {
  return sharp(jpeg).raw().toBuffer();
}

const everyField: IptcFields = {
  caption: 'A caption with  two spaces, a tab\tand a newline\nkept.',
  headline: 'Headline',
  byline: ['Ann One', 'Bob Two'],
  bylineTitle: ['Staff'],
  credit: 'Agency',
  source: 'Agency Pool',
  copyright: '© 2024 Agency',
  dateCreated: '2024-05-30T10:52:06-04:00',
  city: 'Montreal',
  sublocation: 'Old Port',
  state: 'QC',
  country: 'Canada',
  countryCode: 'CAN',
  transmissionReference: 'JOB123',
  objectName: 'SLUG-NAME',
  keywords: ['one', 'two', 'three'],
  specialInstructions: 'EDS NOTE: embargoed',
  writer: 'ed',
};

describe('IIM written into a sharp JPEG reads back unchanged', () => {
  it('Latin-1 (Windows-1252) with accents, © and curly quotes; the image still decodes the same', async () => {
    const jpeg = await photo();
    const fields: IptcFields = { ...everyField, caption: '\u201cCafé\u201d — Zoë’s © 2024 €5', city: 'Montréal' };
    const out = insertIptcIntoJpeg(jpeg, buildIimBlock(fields, { utf8: false }));
    const r = readImageMetadata(out);
    expect(r.iptc).toEqual(fields);
    expect(r.warnings).toEqual([]);
    expect(r.raw.iim.some((d) => d.record === 1 && d.dataset === 90)).toBe(false);
    expect(await pixels(out)).toEqual(await pixels(jpeg));
  });

  it('UTF-8 with scripts Latin-1 cannot hold', async () => {
    const fields: IptcFields = {
      ...everyField,
      caption: 'Łódź, 北京, Αθήνα, Москва 📷',
      byline: ['Zoë Ångström', '李明'],
    };
    const out = insertIptcIntoJpeg(await photo(), buildIimBlock(fields, { utf8: true }));
    const r = readImageMetadata(out);
    expect(r.iptc).toEqual(fields);
    expect(r.raw.iim[0]).toEqual({ record: 1, dataset: 90, value: '\x1b%G' });
  });

  it('refuses, naming the field, text that Latin-1 IIM cannot hold', () => {
    expect(() => buildIimBlock({ headline: 'ok', city: 'Łódź' }, { utf8: false })).toThrow(
      /city: character "Ł" \(U\+0141\)/,
    );
  });

  it('refuses a dateCreated that is not ISO 8601', () => {
    expect(() => buildIimBlock({ dateCreated: '30/05/2024' }, { utf8: true })).toThrow(/dateCreated/);
  });

  it.each([
    ['2024-05-30', '2024-05-30'],
    ['2024-05', '2024-05'],
    ['2024-05-30T10:52:06Z', '2024-05-30T10:52:06+00:00'],
    ['2024-05-30T10:52', '2024-05-30T10:52:00'],
  ])('dateCreated %s reads back as %s', async (written, read) => {
    const out = insertIptcIntoJpeg(await photo(), buildIimBlock({ dateCreated: written }, { utf8: true }));
    expect(readImageMetadata(out).iptc.dateCreated).toBe(read);
  });

  it('sharp sees the block, and parseIim / readMetadataBlocks read what sharp hands over', async () => {
    const out = insertIptcIntoJpeg(await photo(), buildIimBlock(everyField, { utf8: true }));
    const meta = await sharp(out).metadata();
    expect(meta.iptc).toBeInstanceOf(Buffer);
    expect(parseIim(meta.iptc as Buffer).iptc).toEqual(everyField);
    expect(readMetadataBlocks({ iptc: meta.iptc, xmp: meta.xmp }).iptc).toEqual(everyField);
  });
});

describe('IIM length limits and the XMP that completes them', () => {
  it('cuts values at the IIM maximum by default, at a character boundary in UTF-8', async () => {
    const credit = `${'c'.repeat(31)}é and more`; // é would straddle byte 32
    const out = insertIptcIntoJpeg(await photo(), buildIimBlock({ credit }, { utf8: true }));
    expect(readImageMetadata(out).iptc.credit).toBe('c'.repeat(31));
    const long = insertIptcIntoJpeg(await photo(), buildIimBlock({ credit }, { utf8: true, allowOverLength: true }));
    expect(readImageMetadata(long).iptc.credit).toBe(credit);
  });

  it('takes the whole value from XMP where IIM was cut, and IIM elsewhere', async () => {
    const credit = '©1985 David Riecks: www.riecks.com';
    const iim = buildIimBlock({ credit, source: 'IIM source' }, { utf8: false });
    const xmp = buildXmpPacket({ credit, source: 'XMP source', city: 'Only in XMP' });
    const out = insertXmpIntoJpeg(insertIptcIntoJpeg(await photo(), iim), xmp);
    expect(readImageMetadata(out).iptc).toEqual({ credit, source: 'IIM source', city: 'Only in XMP' });
  });

  it('does not take XMP over an IIM value that merely starts the same but was not full', async () => {
    const out = insertXmpIntoJpeg(
      insertIptcIntoJpeg(await photo(), buildIimBlock({ credit: 'AP' }, { utf8: false })),
      buildXmpPacket({ credit: 'AP Photo' }),
    );
    expect(readImageMetadata(out).iptc.credit).toBe('AP');
  });
});

describe('rewriting metadata already in a JPEG', () => {
  it('replaces the IPTC, keeps other Photoshop resources and drops the stale IPTCDigest', async () => {
    const jpeg = await photo();
    const resolution = irbResource(0x03ed, Buffer.from('00480000000100010048000000010001', 'hex'));
    const digest = irbResource(0x0425, Buffer.alloc(16, 7));
    const oldIptc = irbResource(0x0404, buildIimBlock({ credit: 'Old', headline: 'Old headline' }, { utf8: false }));
    // the layout Photoshop writes: resolution, digest and IPTC in one APP13
    const seeded = Buffer.concat([jpeg.subarray(0, 2), app13(resolution, digest, oldIptc), jpeg.subarray(2)]);
    expect(readImageMetadata(seeded).iptc).toEqual({ credit: 'Old', headline: 'Old headline' });
    const once = insertIptcIntoJpeg(seeded, buildIimBlock({ credit: 'New' }, { utf8: false }));
    const twice = insertIptcIntoJpeg(once, buildIimBlock({ credit: 'Newer' }, { utf8: true }));

    const r = readImageMetadata(twice);
    expect(r.iptc).toEqual({ credit: 'Newer' });
    expect(r.warnings).toEqual([]);
    expect(countApp13(twice)).toBe(1);
    expect(twice.includes(resolution)).toBe(true);
    expect(twice.includes(Buffer.from('8BIM\x04\x25', 'latin1'))).toBe(false);
    expect(await pixels(twice)).toEqual(await pixels(jpeg));
  });

  it('splits an IRB over 64 KB across APP13 segments and reads it back whole', async () => {
    const keywords = Array.from({ length: 1500 }, (_, i) => `keyword ${i} ${'k'.repeat(40)}`);
    const out = insertIptcIntoJpeg(await photo(), buildIimBlock({ keywords }, { utf8: true }));
    expect(countApp13(out)).toBe(2);
    expect(readImageMetadata(out).iptc.keywords).toEqual(keywords);
    await expect(sharp(out).metadata()).resolves.toMatchObject({ format: 'jpeg' });
  });

  it('replaces every XMP packet (cech.jpg has two) with the one given', () => {
    const out = insertXmpIntoJpeg(
      Buffer.from(wireImage('cech.jpg')),
      buildXmpPacket({ headline: 'Replaced', keywords: ['a & b'] }),
    );
    const r = readImageMetadata(out);
    expect(r.iptc).toEqual({ headline: 'Replaced', keywords: ['a & b'] });
    expect(r.raw.xmp?.match(/<x:xmpmeta/g)).toHaveLength(1);
  });

  it('refuses input that is not a JPEG, and an XMP packet too big for one segment', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    expect(() => insertIptcIntoJpeg(png, buildIimBlock({ credit: 'x' }, { utf8: true }))).toThrow(InputError);
    expect(() => insertIptcIntoJpeg(png, Buffer.alloc(0))).toThrow(/not a JPEG/);
    expect(() => insertXmpIntoJpeg(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), '<x/>')).toThrow(/no start of scan/);
    expect(() => insertXmpIntoJpeg(seg(0, Buffer.alloc(0)), '<x/>')).toThrow(InputError);
    expect(() =>
      insertXmpIntoJpeg(insertIptcIntoJpeg(Buffer.from(wireImage('cech.jpg')), Buffer.alloc(0)), 'x'.repeat(70000)),
    ).toThrow(/at most 65504/);
  });
});

function countApp13(jpeg: Buffer): number {
  let n = 0;
  let pos = 2;
  while (pos + 4 <= jpeg.length && jpeg[pos] === 0xff && jpeg[pos + 1] !== 0xda) {
    if (jpeg[pos + 1] === 0xed) n++;
    pos += 2 + jpeg.readUInt16BE(pos + 2);
  }
  return n;
}
