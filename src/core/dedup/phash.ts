/**
 * 64-bit difference hash (dHash) of an image already reduced to 9x8 grayscale (row-major,
 * 9 columns x 8 rows): bit = 1 when a pixel is brighter than its left neighbour. It survives
 * re-encoding, resizing and IPTC edits, which change the bytes but not the picture.
 * Bits are read row by row, most significant first, and written as 16 lower-case hex digits.
 */
export function dhash64(gray: Uint8Array): string {
  if (!(gray instanceof Uint8Array) || gray.length !== 72) {
    throw new RangeError(`dhash64 needs 9x8 = 72 grayscale bytes, got ${gray?.length ?? typeof gray}`);
  }
  let hex = '';
  for (let row = 0; row < 8; row++) {
    let byte = 0;
    for (let col = 0; col < 8; col++) {
      const left = gray[row * 9 + col];
      const right = gray[row * 9 + col + 1];
      byte = (byte << 1) | (right > left ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const HEX64 = /^[0-9a-f]{16}$/;

/** Number of differing bits between two 64-bit hashes written as 16 hex digits. */
export function hammingHex(a: string, b: string): number {
  if (!HEX64.test(a) || !HEX64.test(b)) {
    throw new RangeError(
      `hammingHex needs two 16-digit lower-case hex hashes, got ${JSON.stringify(a)} and ${JSON.stringify(b)}`,
    );
  }
  let bits = 0;
  for (let i = 0; i < 16; i += 8) {
    let x = (parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x !== 0) {
      x &= x - 1;
      bits++;
    }
  }
  return bits;
}
