import { combine32, fmix32 } from './hash32';

// Fixed multipliers/offsets: one hash function per signature position, h_i(x) = a_i * x + b_i
// (mod 2^32, a_i odd, so a bijection). Shingle hashes are already well mixed, so this cheap
// family is enough for MinHash; they are part of the stored format (bucket keys depend on them).
const COEFFS: number[] = [];
function coefficients(n: number): number[] {
  while (COEFFS.length < 2 * n) {
    const i = COEFFS.length / 2;
    COEFFS.push((fmix32((Math.imul(i + 1, 0x9e3779b1) ^ 0x5bd1e995) >>> 0) | 1) >>> 0);
    COEFFS.push(fmix32((Math.imul(i + 1, 0x85ebca6b) ^ 0xc2b2ae35) >>> 0));
  }
  return COEFFS;
}

/**
 * MinHash signature: for each of `numHashes` hash functions, the smallest hashed shingle.
 * Two sets agree on one position with probability (close to) their Jaccard similarity.
 */
export function minhashSignature(shingles: Uint32Array, numHashes: number): Uint32Array {
  if (shingles.length === 0) throw new RangeError('MinHash of an empty shingle set is undefined');
  const c = coefficients(numHashes);
  const sig = new Uint32Array(numHashes);
  for (let i = 0; i < numHashes; i++) {
    const a = c[2 * i];
    const b = c[2 * i + 1];
    let min = 0xffffffff;
    for (let j = 0; j < shingles.length; j++) {
      const h = (Math.imul(a, shingles[j]) + b) >>> 0;
      if (h < min) min = h;
    }
    sig[i] = min;
  }
  return sig;
}

/** One LSH band reduced to 64 bits (two 32-bit halves): equal bands give equal keys. */
export interface BandKey {
  band: number;
  hi: number;
  lo: number;
}

/**
 * LSH banding: the signature is cut into `bands` bands of `rows` values; two captions become
 * candidates when any band is identical, which happens with probability 1 - (1 - s^rows)^bands
 * for Jaccard similarity s.
 */
export function lshBands(signature: Uint32Array, bands: number, rows: number): BandKey[] {
  if (signature.length !== bands * rows) {
    throw new RangeError(`signature has ${signature.length} values, bands x rows is ${bands * rows}`);
  }
  const out: BandKey[] = [];
  for (let b = 0; b < bands; b++) {
    let hi = combine32(0x1234567, b);
    let lo = combine32(0x7654321, b);
    for (let r = 0; r < rows; r++) {
      const v = signature[b * rows + r];
      hi = combine32(hi, v);
      lo = combine32(lo, v ^ 0xa5a5a5a5);
    }
    out.push({ band: b, hi, lo });
  }
  return out;
}

/** Probability that a pair with Jaccard similarity s shares at least one band. */
export function candidateProbability(s: number, bands: number, rows: number): number {
  return 1 - Math.pow(1 - Math.pow(s, rows), bands);
}
