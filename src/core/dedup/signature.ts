import { hash } from 'node:crypto';
import { combine32, hashString32 } from './hash32';
import { lshBands, minhashSignature, type BandKey } from './minhash';
import { captionWords, tokensFromWords } from './normalize';
import { ANCHOR_TOKENS, LSH_BANDS, LSH_ROWS, SHINGLE_WORDS, SIGNATURE_VERSION } from './params';
import { shingleHashes } from './shingles';

/** Everything the index needs to know about one cleaned caption. */
export interface CaptionSignature {
  /** Lower-case words, no punctuation: two captions with equal exactText are exact duplicates. */
  exactText: string;
  /**
   * The id of the cluster this caption would start: derived from exactText, so the same caption
   * starts the same cluster id on every machine and every night, whichever item carries it.
   */
  clusterId: string;
  /** Fallback id, used only if clusterId is already taken by a different caption (a 64-bit clash). */
  altClusterId: string;
  /** Sorted, unique 32-bit hashes of the word shingles: the set similarity is computed on. */
  shingles: Uint32Array;
  /** LSH_BANDS MinHash bands, then (captions of ANCHOR_TOKENS tokens or more) the two anchors. */
  bands: BandKey[];
}

/**
 * The caption's cluster id and its fallback: the first and second 64 bits of one SHA-256 of the
 * words (one hash per caption instead of two: ~7 us of the index's Node time per caption in a
 * profile, docs/DEDUP.md). Until 2026-12-03 the fallback was hashed apart; it is only ever used
 * after a 64-bit clash, so no stored cluster is named by it in practice.
 */
function ids64(text: string): [string, string] {
  const h = hash('sha256', `v${SIGNATURE_VERSION}\u0000${text}`, 'hex');
  return [h.slice(0, 16), h.slice(16, 32)];
}

/** Signature of a cleaned caption, or null when it has no words (empty captions get no cluster). */
export function signCaption(cleanedCaption: string): CaptionSignature | null {
  const words = captionWords(cleanedCaption);
  const tokens = tokensFromWords(words);
  if (tokens.length === 0) return null;
  const exact = words.join(' ');
  const shingles = shingleHashes(tokens, SHINGLE_WORDS);
  const [clusterId, altClusterId] = ids64(exact);
  return {
    exactText: exact,
    clusterId,
    altClusterId,
    shingles,
    bands: [...lshBands(minhashSignature(shingles, LSH_BANDS * LSH_ROWS), LSH_BANDS, LSH_ROWS), ...anchorBands(tokens)],
  };
}

/**
 * The caption's first and last ANCHOR_TOKENS tokens as two more bands (numbers LSH_BANDS and
 * LSH_BANDS + 1): a caption cut short or with a sentence appended keeps its first tokens, one with
 * its first sentence removed its last ones, while its Jaccard falls out of the MinHash bands' reach.
 */
export function anchorBands(tokens: readonly string[]): BandKey[] {
  if (tokens.length < ANCHOR_TOKENS) return [];
  const key = (band: number, part: readonly string[]): BandKey => {
    let hi = combine32(0x2468ace, band);
    let lo = combine32(0x1357bdf, band);
    for (const t of part) {
      const h = hashString32(t);
      hi = combine32(hi, h);
      lo = combine32(lo, h ^ 0xa5a5a5a5);
    }
    return { band, hi, lo };
  };
  return [key(LSH_BANDS, tokens.slice(0, ANCHOR_TOKENS)), key(LSH_BANDS + 1, tokens.slice(-ANCHOR_TOKENS))];
}
