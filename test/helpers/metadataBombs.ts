import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import { REPO_ROOT } from './testEnv';

/**
 * Metadata bombs built from real image bytes: a real PNG, JPEG and TIFF of the fixtures with
 * hostile metadata blocks added (compressed with node:zlib where the format compresses). Each photo
 * still decodes: only its metadata is hostile.
 */

const GENERATED = path.join(REPO_ROOT, 'test/fixtures/real-wire/generated');
export const BOMB_SOURCES = {
  png: path.join(GENERATED, 'xmp-after-idat.png'),
  jpeg: path.join(GENERATED, 'no-digest.jpg'),
  tiff: path.join(GENERATED, 'le-iptc.tif'),
};

const XMP_HEAD =
  '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:xmpNote="http://ns.adobe.com/xmp/note/"';
const XMP_TAIL = '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

/** A well-formed XMP packet of about `chars` characters: one keyword Bag of one-letter items (the cheapest bytes to make a big tree from). */
export function keywordXmp(chars: number, credit = 'Bomb Credit'): string {
  const head = `${XMP_HEAD} photoshop:Credit="${credit}"><dc:subject><rdf:Bag>`;
  const tail = `</rdf:Bag></dc:subject>${XMP_TAIL}`;
  const li = '<rdf:li>k</rdf:li>';
  return head + li.repeat(Math.max(1, Math.floor((chars - head.length - tail.length) / li.length))) + tail;
}

/** A small packet that states a credit (so a test can see the sane metadata is still read). */
export function smallXmp(credit: string, extra = ''): string {
  return `${XMP_HEAD} photoshop:Credit="${credit}"${extra}>${XMP_TAIL}`;
}

// --- PNG ---

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A compressed iTXt "XML:com.adobe.xmp" chunk. */
export function itxtXmp(text: string): Buffer {
  return pngChunk(
    'iTXt',
    Buffer.concat([
      Buffer.from('XML:com.adobe.xmp\0\x01\x00\0\0', 'latin1'),
      deflateSync(Buffer.from(text, 'utf8'), { level: 9 }),
    ]),
  );
}

/** A zTXt chunk (Latin-1 text, compressed). */
export function ztxt(keyword: string, text: string): Buffer {
  return pngChunk(
    'zTXt',
    Buffer.concat([Buffer.from(`${keyword}\0\0`, 'latin1'), deflateSync(Buffer.from(text, 'latin1'), { level: 9 })]),
  );
}

/** The real PNG with `chunks` inserted before IEND. */
export function pngWith(chunks: Buffer[]): Buffer {
  const png = readFileSync(BOMB_SOURCES.png);
  const iend = png.lastIndexOf(Buffer.from('IEND', 'latin1')) - 4;
  return Buffer.concat([png.subarray(0, iend), ...chunks, png.subarray(iend)]);
}

/** The attack as reported: ten compressed XMP chunks, each inflating to just under 16 MB (about 166 KB on disk). */
export function pngInflateBomb(chunks = 10, eachChars = 16 * 1024 * 1024 - 1024): Buffer {
  const one = itxtXmp(keywordXmp(eachChars));
  return pngWith(Array.from({ length: chunks }, () => one));
}

/** Thousands of small text chunks (each a harmless zTXt comment) and one real XMP at the end. */
export function pngManyChunks(count: number): Buffer {
  const comment = ztxt('Comment', 'x'.repeat(4096));
  return pngWith([...Array.from({ length: count }, () => comment), itxtXmp(smallXmp('Late Credit'))]);
}

/** An XMP padded with megabytes of NULs and a trailing byte, without its closing `<?xpacket end?>`. */
export function pngNulPadding(nuls: number): Buffer {
  const packet = smallXmp('Padded Credit').replace('<?xpacket end="w"?>', '');
  return pngWith([itxtXmp(packet + '\0'.repeat(nuls) + 'x')]);
}

/** One packet with a huge number of attributes (each a namespace-less attribute on a Description). */
export function pngHugeAttributes(chars: number): Buffer {
  const n = Math.floor(chars / 12);
  const attrs = Array.from({ length: n }, (_, i) => ` a${i.toString(36)}="1"`).join('');
  return pngWith([itxtXmp(smallXmp('Attr Credit', attrs))]);
}

/** Elements nested `depth` deep inside the Description. */
export function pngDeepNesting(depth: number): Buffer {
  const packet = smallXmp('Deep Credit').replace(
    '></rdf:Description>',
    `>${'<dc:x>'.repeat(depth)}${'</dc:x>'.repeat(depth)}</rdf:Description>`,
  );
  return pngWith([itxtXmp(packet)]);
}

// --- JPEG ---

function app1(body: Buffer): Buffer {
  if (body.length + 2 > 0xffff) throw new Error(`APP1 body of ${body.length} bytes does not fit a segment`);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

const XMP_APP1 = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const XMP_EXT_APP1 = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');

/** The real JPEG with `segments` inserted right after SOI. */
export function jpegWith(segments: Buffer[]): Buffer {
  const jpeg = readFileSync(BOMB_SOURCES.jpeg);
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/**
 * Many APP1 XMP segments of about 64 KB each, every one a well-formed packet of keywords, and an
 * extended XMP (announced by the first packet) whose chunks add up to `extendedBytes`.
 */
export function jpegManyXmp(segments: number, extendedBytes: number): Buffer {
  const guid = 'A'.repeat(32);
  const first = keywordXmp(60_000, 'Jpeg Credit').replace(
    ' photoshop:Credit=',
    ` xmpNote:HasExtendedXMP="${guid}" photoshop:Credit=`,
  );
  const out: Buffer[] = [app1(Buffer.concat([XMP_APP1, Buffer.from(first, 'utf8')]))];
  const other = app1(Buffer.concat([XMP_APP1, Buffer.from(keywordXmp(60_000, 'Jpeg Credit'), 'utf8')]));
  for (let i = 1; i < segments; i++) out.push(other);
  const ext = Buffer.from(keywordXmp(extendedBytes), 'utf8');
  const per = 65_000;
  for (let off = 0; off < ext.length; off += per) {
    const hdr = Buffer.alloc(40);
    hdr.write(guid, 0, 'latin1');
    hdr.writeUInt32BE(ext.length, 32);
    hdr.writeUInt32BE(off, 36);
    out.push(app1(Buffer.concat([XMP_EXT_APP1, hdr, ext.subarray(off, off + per)])));
  }
  return jpegWith(out);
}

/** APP1 XMP segments whose packet has no closing PI and ends in 65,000 NULs and one other byte. */
export function jpegNulPadding(segments: number): Buffer {
  const packet = Buffer.from(smallXmp('Nul Credit').replace('<?xpacket end="w"?>', ''), 'utf8');
  const seg = app1(Buffer.concat([XMP_APP1, packet, Buffer.alloc(65_000), Buffer.from('x')]));
  return jpegWith(Array.from({ length: segments }, () => seg));
}

// --- TIFF ---

/**
 * The real little-endian TIFF with an XMP tag (700) of `xmp` appended: IFD0 is copied to the end
 * of the file with the tag added (entries stay sorted; the other entries' offsets are unchanged).
 */
export function tiffWithXmp(xmp: Buffer): Buffer {
  const tif = readFileSync(BOMB_SOURCES.tiff);
  if (tif.toString('latin1', 0, 2) !== 'II') throw new Error('expected a little-endian TIFF');
  const ifd = tif.readUInt32LE(4);
  const n = tif.readUInt16LE(ifd);
  const entries: Buffer[] = [];
  for (let i = 0; i < n; i++) entries.push(tif.subarray(ifd + 2 + i * 12, ifd + 14 + i * 12));
  const next = tif.readUInt32LE(ifd + 2 + n * 12);
  const xmpAt = tif.length + (tif.length & 1);
  const entry = Buffer.alloc(12);
  entry.writeUInt16LE(700, 0);
  entry.writeUInt16LE(1, 2); // BYTE
  entry.writeUInt32LE(xmp.length, 4);
  entry.writeUInt32LE(xmpAt, 8);
  const kept = entries.filter((e) => e.readUInt16LE(0) !== 700);
  kept.push(entry);
  kept.sort((a, b) => a.readUInt16LE(0) - b.readUInt16LE(0));
  const ifdAt = xmpAt + xmp.length + (xmp.length & 1);
  const newIfd = Buffer.alloc(2 + kept.length * 12 + 4);
  newIfd.writeUInt16LE(kept.length, 0);
  kept.forEach((e, i) => e.copy(newIfd, 2 + i * 12));
  newIfd.writeUInt32LE(next, 2 + kept.length * 12);
  const out = Buffer.concat([
    tif,
    Buffer.alloc(xmpAt - tif.length),
    xmp,
    Buffer.alloc(ifdAt - xmpAt - xmp.length),
    newIfd,
  ]);
  out.writeUInt32LE(ifdAt, 4);
  return out;
}
