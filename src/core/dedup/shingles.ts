import { combine32, hashString32 } from './hash32';

/**
 * The caption as a set of word k-shingles, each stored as a 32-bit hash: sorted, unique.
 * A caption with fewer than k words (and at least one) becomes a single shingle of all its words,
 * so "Julian Assange" still matches "Julian Assange" exactly and nothing else.
 * The hash of a shingle depends on its length, so a 2-word short caption never equals a
 * bigram inside a longer caption by accident of construction.
 */
export function shingleHashes(tokens: readonly string[], k: number): Uint32Array {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`shingle size must be a positive integer, got ${k}`);
  if (tokens.length === 0) return new Uint32Array(0);
  const width = Math.min(k, tokens.length);
  const tokenHashes = tokens.map((t) => hashString32(t));
  const count = tokens.length - width + 1;
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h = width;
    for (let j = 0; j < width; j++) h = combine32(h, tokenHashes[i + j]);
    out[i] = h;
  }
  out.sort();
  return dedupeSorted(out);
}

function dedupeSorted(a: Uint32Array): Uint32Array {
  if (a.length < 2) return a;
  let w = 1;
  for (let r = 1; r < a.length; r++) if (a[r] !== a[w - 1]) a[w++] = a[r];
  return w === a.length ? a : a.slice(0, w);
}
