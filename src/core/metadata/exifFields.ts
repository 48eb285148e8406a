import type { IptcFields } from '../../schemas/feedItem';
import { impossibleDateReason } from './dates';
import { decodeCp1252, decodeUtf8, isValidUtf8 } from './textCodecs';
import { TIFF_TAG, readTiff, tiffText, type TiffRead } from './tiffIfd';

/**
 * The EXIF tags that can stand for IPTC fields: ImageDescription (caption), Artist (by-line),
 * Copyright and DateTimeOriginal (with its sub-seconds and offset); mergeIimXmp.ts decides when
 * they count. Text as UTF-8, or Windows-1252 when the bytes are not UTF-8 (Windows tools wrote
 * their code page: an "ö", not U+FFFD); trimmed, as cameras pad ImageDescription with blanks
 * ("OLYMPUS DIGITAL CAMERA         "); blank values skipped; Artist split on "; " (MWG's
 * list-in-a-string rule). A zeroed or impossible date (0000:00:00, before 1900, month 13) is
 * left out, with a warning when `warnings` is given.
 */
export function exifFieldsFromTiff(tiff: TiffRead, warnings?: string[]): IptcFields {
  const fields: IptcFields = {};
  const text = (v: string | undefined) => {
    const t = v?.replace(/^[\s\0]+|[\s\0]+$/g, '');
    return t !== undefined && t !== '' ? t : undefined;
  };
  const caption = text(tiffText(tiff.ifd0.get(TIFF_TAG.ImageDescription), decodeExifText));
  if (caption !== undefined) fields.caption = caption;
  const artist = text(tiffText(tiff.ifd0.get(TIFF_TAG.Artist), decodeExifText));
  if (artist !== undefined)
    fields.byline = splitMwgList(artist)
      .map((a) => a.trim())
      .filter((a) => a !== '');
  if (fields.byline?.length === 0) delete fields.byline;
  const copyright = text(copyrightText(tiff));
  if (copyright !== undefined) fields.copyright = copyright;
  const date = exifDateTime(tiff, warnings);
  if (date !== undefined) fields.dateCreated = date;
  return fields;
}

/** EXIF ASCII is meant to be 7-bit; writers put UTF-8 (read as such) or their Windows code page. */
export function decodeExifText(bytes: Uint8Array): string {
  return isValidUtf8(bytes) ? decodeUtf8(bytes) : decodeCp1252(bytes);
}

/** EXIF block of a JPEG APP1 / PNG / WebP: optional "Exif\0\0", then a TIFF structure. */
export function readExifBlock(bytes: Uint8Array, where: string, warnings: string[]): IptcFields {
  let tiffBytes = bytes;
  if (bytes.length >= 6 && Buffer.from(bytes.subarray(0, 6)).toString('latin1') === 'Exif\0\0')
    tiffBytes = bytes.subarray(6);
  const tiff = readTiff(tiffBytes, where);
  if (!tiff) {
    warnings.push(`${where}: EXIF block does not start with a TIFF header; ignored`);
    return {};
  }
  warnings.push(...tiff.warnings);
  return exifFieldsFromTiff(tiff, warnings);
}

// Copyright holds "photographer\0editor"; ExifTool joins the two parts with " - " when both are there.
function copyrightText(tiff: TiffRead): string | undefined {
  const e = tiff.ifd0.get(TIFF_TAG.Copyright);
  if (!e) return undefined;
  const parts = decodeExifText(e.bytes).split('\0');
  const photographer = parts[0] ?? '';
  const editor = parts.slice(1).join('').trim();
  return editor && photographer.trim() ? `${photographer} - ${editor}` : photographer || editor;
}

/** "2016:02:13 20:50:25" + sub-seconds "27" + offset "+01:00" -> 2016-02-13T20:50:25.27+01:00 */
function exifDateTime(tiff: TiffRead, warnings?: string[]): string | undefined {
  const raw = tiffText(tiff.exif.get(TIFF_TAG.DateTimeOriginal), decodeUtf8);
  if (raw === undefined || /^[: ]*$/.test(raw)) return undefined;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(raw.trim());
  if (!m) return undefined;
  const impossible = impossibleDateReason(
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? 0),
  );
  if (impossible) {
    warnings?.push(`EXIF DateTimeOriginal ${JSON.stringify(raw.trim().slice(0, 40))} ${impossible}; ignored`);
    return undefined;
  }
  const sub = tiffText(tiff.exif.get(TIFF_TAG.SubSecTimeOriginal), decodeUtf8)?.trim();
  const offset = tiffText(tiff.exif.get(TIFF_TAG.OffsetTimeOriginal), decodeUtf8)?.trim();
  let out = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}${m[6] ? `:${m[6]}` : ''}`;
  if (m[6] && sub && /^\d+$/.test(sub)) out += `.${sub}`;
  if (offset && /^[+-]\d{2}:\d{2}$/.test(offset)) out += offset;
  return out;
}

/** MWG (ExifTool MWG::StringToList): names in one string are separated by "; "; a quoted name may hold one. */
function splitMwgList(text: string): string[] {
  const out: string[] = [];
  let inQuotes = false;
  for (let part of text.split('; ')) {
    const wasQuoted = inQuotes;
    if (!inQuotes && part.startsWith('"')) {
      inQuotes = true;
      part = part.slice(1);
    }
    if (inQuotes) {
      const closing = /((?:^|[^"])(?:"")*)"$/.exec(part);
      if (closing) {
        inQuotes = false;
        part = part.slice(0, closing.index) + closing[1];
      }
      part = part.replace(/""/g, '"');
    }
    if (wasQuoted) out[out.length - 1] += `; ${part}`;
    else out.push(part);
  }
  return out;
}
