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
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8 };

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

export function isTiff(buf: Uint8Array): boolean {
  return buf.length >= 8 && ((buf[0] === 0x49 && buf[1] === 0x49 && buf[2] === 42 && buf[3] === 0) || (buf[0] === 0x4d && buf[1] === 0x4d && buf[2] === 0 && buf[3] === 42));
}

/** Read IFD0 and its EXIF sub-IFD. Never throws; damage gives warnings and whatever was read. */
export function readTiff(buf: Uint8Array, where: string): TiffRead | undefined {
  if (!isTiff(buf)) return undefined;
  const littleEndian = buf[0] === 0x49;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const warnings: string[] = [];
  const ifd0 = readIfd(view, buf, view.getUint32(4, littleEndian), littleEndian, warnings, `${where} IFD0`);
  let exif = new Map<number, TiffEntry>();
  const exifPtr = ifd0.get(TIFF_TAG.ExifIFD);
  if (exifPtr && exifPtr.bytes.length >= 4) {
    const off = new DataView(exifPtr.bytes.buffer, exifPtr.bytes.byteOffset, 4).getUint32(0, littleEndian);
    exif = readIfd(view, buf, off, littleEndian, warnings, `${where} EXIF IFD`);
  }
  return { littleEndian, ifd0, exif, warnings };
}

function readIfd(view: DataView, buf: Uint8Array, offset: number, le: boolean, warnings: string[], where: string): Map<number, TiffEntry> {
  const out = new Map<number, TiffEntry>();
  if (offset < 8 || offset + 2 > buf.length) {
    warnings.push(`${where}: directory offset ${offset} is outside the file; not read`);
    return out;
  }
  const n = view.getUint16(offset, le);
  for (let i = 0; i < n; i++) {
    const p = offset + 2 + i * 12;
    if (p + 12 > buf.length) {
      warnings.push(`${where}: directory is cut off after ${i} of ${n} entries`);
      break;
    }
    const tag = view.getUint16(p, le);
    const type = view.getUint16(p + 2, le);
    const count = view.getUint32(p + 4, le);
    const size = (TYPE_SIZE[type] ?? 1) * count;
    let start = p + 8;
    if (size > 4) start = view.getUint32(p + 8, le);
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
