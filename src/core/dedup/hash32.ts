/**
 * Small, fast, dependency-free 32-bit hashing for shingles and MinHash. The values are stored in
 * Redis, so these functions are part of the on-disk format: never change them without bumping
 * SIGNATURE_VERSION (params.ts).
 */

/** murmur3's finalizer: a bijection on 32-bit integers with full avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over UTF-16 code units, finished with fmix32 (FNV alone mixes the high bits poorly). */
export function hashString32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Order-sensitive combination of 32-bit values (used for shingles and LSH band keys). */
export function combine32(h: number, v: number): number {
  return fmix32((Math.imul(h, 0x9e3779b1) ^ v) >>> 0);
}
