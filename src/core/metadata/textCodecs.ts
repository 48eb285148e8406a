/**
 * Byte <-> text conversions for IIM and XMP. IIM text without a UTF-8 declaration is read
 * as Windows-1252 (what ExifTool calls "Latin"): it is a superset of Latin-1 for every byte
 * writers actually use, and agencies' "Latin-1" files routinely contain its curly quotes.
 */

const utf8Decoder = new TextDecoder('utf-8');
const utf16leDecoder = new TextDecoder('utf-16le');
const utf16beDecoder = new TextDecoder('utf-16be');

/** Node's TextDecoder('windows-1252') decodes as ISO-8859-1 (0x80-0x9F become C1 controls), so map those bytes here. */
export function decodeCp1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return /[\x80-\x9f]/.test(latin1)
    ? latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_DECODE[c.charCodeAt(0)] ?? c)
    : latin1;
}

/** Invalid sequences become U+FFFD instead of throwing: a bad byte must not lose a caption. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

// Windows-1252 bytes 0x80-0x9F that are not C1 controls.
const CP1252_HIGH: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};
const CP1252_DECODE: Record<number, string> = Object.fromEntries(
  Object.entries(CP1252_HIGH).map(([cp, byte]) => [byte, String.fromCodePoint(Number(cp))]),
);
// The five bytes Windows-1252 leaves undefined decode to the same-numbered C1 control.
const CP1252_UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/**
 * Encode text as Windows-1252 so that `decodeCp1252` gives it back unchanged.
 * Returns the offending character when the text cannot be represented.
 */
export function encodeCp1252(text: string): { bytes: Buffer } | { unencodable: string } {
  const out = Buffer.allocUnsafe(text.length);
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    let byte: number | undefined;
    if (cp < 0x80 || (cp >= 0xa0 && cp <= 0xff) || CP1252_UNDEFINED.has(cp)) byte = cp;
    else byte = CP1252_HIGH[cp];
    if (byte === undefined) return { unencodable: ch };
    out[n++] = byte;
  }
  return { bytes: out.subarray(0, n) };
}

/**
 * Decode an XMP packet whatever its encoding. The XMP spec allows UTF-8, UTF-16 and UTF-32
 * (either byte order); the packet starts with `<` (or a BOM), so the position of the NUL
 * bytes around the first `<` tells the encoding even without a BOM.
 */
export function decodeXmpBytes(bytes: Uint8Array): string {
  const b0 = bytes[0];
  const b1 = bytes[1];
  const b2 = bytes[2];
  const b3 = bytes[3];
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return utf8Decoder.decode(bytes.subarray(3));
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) return decodeUtf32(bytes.subarray(4), false);
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00) return decodeUtf32(bytes.subarray(4), true);
  if (b0 === 0xfe && b1 === 0xff) return utf16beDecoder.decode(bytes.subarray(2));
  if (b0 === 0xff && b1 === 0xfe) return utf16leDecoder.decode(bytes.subarray(2));
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0x00 && b3 !== 0x00) return decodeUtf32(bytes, false);
  if (b0 !== 0x00 && b1 === 0x00 && b2 === 0x00 && b3 === 0x00) return decodeUtf32(bytes, true);
  if (b0 === 0x00 && b1 !== 0x00) return utf16beDecoder.decode(bytes);
  if (b0 !== 0x00 && b1 === 0x00) return utf16leDecoder.decode(bytes);
  return utf8Decoder.decode(bytes);
}

function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let out = '';
  for (let i = 0; i + 4 <= bytes.byteLength; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
  }
  return out;
}
