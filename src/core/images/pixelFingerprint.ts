/**
 * Where a JPEG's compressed pixels start: the first Start-Of-Scan marker. A resend whose caption
 * was corrected changes only the metadata segments before it, so hashing from here on tells
 * "same pixels, new IPTC" apart from a new photo without decoding anything.
 * Returns null for anything that is not a walkable JPEG (then the whole file is the fingerprint).
 */
export function jpegScanOffset(bytes: Uint8Array): number | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xda) return i;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const len = (bytes[i + 2] << 8) | bytes[i + 3];
    if (len < 2) return null;
    i += 2 + len;
  }
  return null;
}

/** The bytes whose hash identifies a photo's pixels: the scan data of a JPEG, else the whole file. */
export function pixelBytes(bytes: Uint8Array): Uint8Array {
  const at = jpegScanOffset(bytes);
  return at === null ? bytes : bytes.subarray(at);
}
