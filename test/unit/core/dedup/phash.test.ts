import { dhash64, hammingHex } from '../../../../src/core/dedup/phash';

/** A 9x8 image from a function of (column, row). */
function image(f: (x: number, y: number) => number): Uint8Array {
  const g = new Uint8Array(72);
  for (let y = 0; y < 8; y++) for (let x = 0; x < 9; x++) g[y * 9 + x] = f(x, y);
  return g;
}

describe('dhash64', () => {
  it('sets a bit where a pixel is brighter than its left neighbour, row by row, MSB first', () => {
    expect(dhash64(image((x) => x * 20))).toBe('ffffffffffffffff');
    expect(dhash64(image((x) => 200 - x * 20))).toBe('0000000000000000');
    expect(dhash64(image(() => 128))).toBe('0000000000000000');
    // Only the first row brightens; only its first comparison (column 0 -> 1) in the second row.
    expect(dhash64(image((x, y) => (y === 0 ? x * 10 : y === 1 && x >= 1 ? 50 : 0)))).toBe('ff80000000000000');
  });

  it('does not change when the picture is only made brighter or re-quantized slightly', () => {
    const photo = image((x, y) => (37 * x * x + 91 * y + 13 * x * y) % 251);
    const brighter = image((x, y) => Math.min(255, ((37 * x * x + 91 * y + 13 * x * y) % 251) + 4));
    expect(hammingHex(dhash64(photo), dhash64(brighter))).toBeLessThanOrEqual(2);
  });

  it('rejects anything but 72 grayscale bytes, saying what it got', () => {
    expect(() => dhash64(new Uint8Array(64))).toThrow(/72 grayscale bytes, got 64/);
    expect(() => dhash64([1, 2, 3] as unknown as Uint8Array)).toThrow(RangeError);
  });
});

describe('hammingHex', () => {
  it('counts differing bits across all 64', () => {
    expect(hammingHex('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingHex('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingHex('8000000000000001', '0000000000000000')).toBe(2);
    expect(hammingHex('00000000ffffffff', 'ffffffff00000000')).toBe(64);
  });

  it('rejects malformed hashes', () => {
    expect(() => hammingHex('abc', '0000000000000000')).toThrow(/16-digit/);
    expect(() => hammingHex('000000000000000G', '0000000000000000')).toThrow(RangeError);
  });
});
