/**
 * The seed's side of DEFAULT_DEDUP_THRESHOLD: every pair of seed captions (cleaned) with its
 * bigram Jaccard similarity and its caption similarity (captionSimilarity(), pairwise, no member
 * shingles), and the partition at the default threshold.
 * Run: npx tsc -p tsconfig.bench.json && node dist-bench/bench/dedup/seedSimilarity.js
 */
import { matchTokens } from '../../src/core/dedup/normalize';
import { CONTAINMENT_DISCOUNT, DEFAULT_DEDUP_THRESHOLD, MIN_CONTAINED_SHINGLES } from '../../src/core/dedup/params';
import { ReferenceClusterer, type ReferenceOptions } from '../../src/core/dedup/referenceClusterer';
import { shingleHashes } from '../../src/core/dedup/shingles';
import { captionSimilarity, intersectionSize, jaccard } from '../../src/core/dedup/similarity';
import { readSeedCaptions, type SeedCaption } from './seedCaptions';

export interface SeedPair {
  a: string;
  b: string;
  /** Bigram Jaccard (shingle size k). */
  similarity: number;
  /** captionSimilarity() of the two captions, one as the canonical (k = 2 only). */
  caption: number;
}

/** All pairs of distinct cleaned seed captions, most similar (Jaccard) first, for shingle size k. */
export function seedPairs(seed: SeedCaption[], k: number): SeedPair[] {
  const sets = seed.map((s) => shingleHashes(matchTokens(s.cleaned), k));
  const pairs: SeedPair[] = [];
  for (let i = 0; i < seed.length; i++) {
    for (let j = i + 1; j < seed.length; j++) {
      const inter = intersectionSize(sets[i], sets[j]);
      const caption = captionSimilarity({ inter, interAll: inter, canonical: sets[i].length, caption: sets[j].length }, CONTAINMENT_DISCOUNT, MIN_CONTAINED_SHINGLES);
      pairs.push({ a: seed[i].n, b: seed[j].n, similarity: jaccard(sets[i], sets[j]), caption });
    }
  }
  return pairs.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}

/** The seed's partition at a threshold, as sorted lists of item numbers (clusters of 2+ only). */
export function seedGroups(seed: SeedCaption[], threshold: number, opts: ReferenceOptions = {}): string[][] {
  const ref = new ReferenceClusterer(threshold, opts);
  for (const s of seed) ref.assign(s.n, s.cleaned);
  return [...ref.partition().values()]
    .filter((m) => m.length > 1)
    .map((m) => [...m].sort())
    .sort((x, y) => x[0].localeCompare(y[0]));
}

function main(): void {
  const seed = readSeedCaptions();
  const top = seedPairs(seed, 2).filter((p) => p.similarity < 1 && (p.similarity >= 0.4 || p.caption >= 0.4));
  console.log(top.map((p) => `${p.a}/${p.b} jaccard ${p.similarity.toFixed(3)} caption ${p.caption.toFixed(3)}`).join('\n'));
  console.log(`clusters of 2+ at ${DEFAULT_DEDUP_THRESHOLD}: ${seedGroups(seed, DEFAULT_DEDUP_THRESHOLD).map((g) => `{${g.join(',')}}`).join(' ')}`);
}

if (require.main === module) main();
