/**
 * TIFF image file directories, read by hand: a TIFF file's own metadata tags and the EXIF
 * block of a JPEG (APP1 "Exif\0\0"), PNG (eXIf, "Raw profile type exif") or WebP are the
 * same structure. The byte order is the header's ("II" little-endian, "MM" big-endian).
 *
 * Why by hand: for a big-endian TIFF, libvips hands back the IPTC tag (33723, stored as
 * LONGs) with every 4-byte word swapped (ExifTool's ExifTool.tif, Exiv2's Reagan.tiff), so
 * the IIM in it cannot be parsed. The bytes of a tag's value are taken here exactly as the
 * file stores them, which for IIM and IRB data is the right order whatever the type says.
 */

export const TIFF_TAG = {
  ImageDescription: 0x010e,
  Artist: 0x013b,
  XMP: 0x02bc, // 700
  Copyright: 0x8298,
  IPTC: 0x83bb, // 33723
  Photoshop: 0x8649, // 34377
  ExifIFD: 0x8769,
  DateTimeOriginal: 0x9003,
  OffsetTimeOriginal: 0x9011,
  SubSecTimeOriginal: 0x9291,
} as const;

// TIFF type -> size of one value in bytes
const TYPE_SIZE: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
  16: 8,
  17: 8,
  18: 8,
};

export interface TiffEntry {
  tag: number;
  type: number;
  count: number;
  /** The value's bytes as stored (a view into the input). */
  bytes: Uint8Array;
}

export interface TiffRead {
  littleEndian: boolean;
  /** First IFD (IFD0) entries by tag. */
  ifd0: Map<number, TiffEntry>;
  /** EXIF sub-IFD entries by tag (empty when there is none). */
  exif: Map<number, TiffEntry>;
  warnings: string[];
}

/** A classic TIFF (magic 42) or a BigTIFF (magic 43: 64-bit offsets, 20-byte entries), in either byte order. */
export function isTiff(buf: Uint8Array): boolean {
  return tiffMagic(buf) !== undefined;
}

function tiffMagic(buf: Uint8Array): 42 | 43 | undefined {
  if (buf.length < 8) return undefined;
  const le = buf[0] === 0x49 && buf[1] === 0x49 && buf[3] === 0;
  const be = buf[0] === 0x4d && buf[1] === 0x4d && buf[2] === 0;
  const magic = le ? buf[2] : be ? buf[3] : 0;
  if (magic === 42) return 42;
  // BigTIFF: the byte size of offsets (8) and a zero follow the magic
  if (magic === 43 && buf.length >= 16) {
    const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (v.getUint16(4, le) === 8 && v.getUint16(6, le) === 0) return 43;
  }
  return undefined;
}

/** The layout of a directory: classic TIFF or BigTIFF. */
interface Layout {
  big: boolean;
  /** Bytes of the entry count, of an entry, of a count or offset, and the most a value holds inline. */
  countSize: number;
  entrySize: number;
  wordSize: number;
}

const CLASSIC: Layout = { big: false, countSize: 2, entrySize: 12, wordSize: 4 };
const BIG: Layout = { big: true, countSize: 8, entrySize: 20, wordSize: 8 };

/** An unsigned 32- or 64-bit integer; past 2^53 it is returned as Infinity (outside any file). */
function readWord(view: DataView, at: number, le: boolean, size: number): number {
  if (size === 4) return view.getUint32(at, le);
  if (size === 2) return view.getUint16(at, le);
  const n = view.getBigUint64(at, le);
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(n);
}

/** Read IFD0 and its EXIF sub-IFD. Never throws; damage gives warnings and whatever was read. */
export function readTiff(buf: Uint8Array, where: string): TiffRead | undefined {
  const magic = tiffMagic(buf);
  if (magic === undefined) return undefined;
  const littleEndian = buf[0] === 0x49;
  const layout = magic === 43 ? BIG : CLASSIC;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const warnings: string[] = [];
  const ifd0 = readIfd(
    view,
    buf,
    readWord(view, layout.big ? 8 : 4, littleEndian, layout.wordSize),
    littleEndian,
    warnings,
    `${where} IFD0`,
    layout,
  );
  let exif = new Map<number, TiffEntry>();
  const exifPtr = ifd0.get(TIFF_TAG.ExifIFD);
  // the pointer is a LONG or IFD (4 bytes), in a BigTIFF also a LONG8 or IFD8 (8 bytes)
  if (exifPtr && exifPtr.bytes.length >= 4) {
    const size = exifPtr.bytes.length >= 8 && (exifPtr.type === 16 || exifPtr.type === 18) ? 8 : 4;
    const off = readWord(new DataView(exifPtr.bytes.buffer, exifPtr.bytes.byteOffset, size), 0, littleEndian, size);
    exif = readIfd(view, buf, off, littleEndian, warnings, `${where} EXIF IFD`, layout);
  }
  return { littleEndian, ifd0, exif, warnings };
}

function readIfd(
  view: DataView,
  buf: Uint8Array,
  offset: number,
  le: boolean,
  warnings: string[],
  where: string,
  layout: Layout = CLASSIC,
): Map<number, TiffEntry> {
  const out = new Map<number, TiffEntry>();
  if (offset < 8 || offset + layout.countSize > buf.length) {
    warnings.push(`${where}: directory offset ${offset} is outside the file; not read`);
    return out;
  }
  const n = readWord(view, offset, le, layout.countSize);
  const w = layout.wordSize;
  for (let i = 0; i < n; i++) {
    const p = offset + layout.countSize + i * layout.entrySize;
    if (p + layout.entrySize > buf.length) {
      warnings.push(`${where}: directory is cut off after ${i} of ${n} entries`);
      break;
    }
    const tag = view.getUint16(p, le);
    const type = view.getUint16(p + 2, le);
    const count = readWord(view, p + 4, le, w);
    const size = (TYPE_SIZE[type] ?? 1) * count;
    let start = p + 4 + w;
    if (size > w) start = readWord(view, p + 4 + w, le, w);
    if (start + size > buf.length || size > buf.length) {
      warnings.push(`${where}: tag ${tag} claims ${size} bytes at offset ${start}, past the end of the file; ignored`);
      continue;
    }
    if (!out.has(tag)) out.set(tag, { tag, type, count, bytes: buf.subarray(start, start + size) });
  }
  return out;
}

/** An ASCII (type 2) value without its NUL terminator(s); undefined when absent. */
export function tiffText(entry: TiffEntry | undefined, decode: (b: Uint8Array) => string): string | undefined {
  if (!entry) return undefined;
  let end = entry.bytes.indexOf(0);
  if (end < 0) end = entry.bytes.length;
  return decode(entry.bytes.subarray(0, end));
}
