/**
 * The measurement behind DEFAULT_DEDUP_THRESHOLD and SHINGLE_WORDS: every pair of seed captions
 * (cleaned) with its Jaccard similarity for shingle sizes 1..5, and the partition at the default
 * threshold. Run: npx tsc -p tsconfig.bench.json && node dist-bench/bench/dedup/seedSimilarity.js
 */
import { matchTokens } from '../../src/core/dedup/normalize';
import { DEFAULT_DEDUP_THRESHOLD } from '../../src/core/dedup/params';
import { ReferenceClusterer } from '../../src/core/dedup/referenceClusterer';
import { shingleHashes } from '../../src/core/dedup/shingles';
import { jaccard } from '../../src/core/dedup/similarity';
import { readSeedCaptions, type SeedCaption } from './seedCaptions';

export interface SeedPair {
  a: string;
  b: string;
  similarity: number;
}

/** All pairs of distinct cleaned seed captions, most similar first, for shingle size k. */
export function seedPairs(seed: SeedCaption[], k: number): SeedPair[] {
  const sets = seed.map((s) => shingleHashes(matchTokens(s.cleaned), k));
  const pairs: SeedPair[] = [];
  for (let i = 0; i < seed.length; i++) {
    for (let j = i + 1; j < seed.length; j++) {
      pairs.push({ a: seed[i].n, b: seed[j].n, similarity: jaccard(sets[i], sets[j]) });
    }
  }
  return pairs.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}

/** The seed's partition at a threshold, as sorted lists of item numbers (clusters of 2+ only). */
export function seedGroups(seed: SeedCaption[], threshold: number): string[][] {
  const ref = new ReferenceClusterer(threshold);
  for (const s of seed) ref.assign(s.n, s.cleaned);
  return [...ref.partition().values()]
    .filter((m) => m.length > 1)
    .map((m) => [...m].sort())
    .sort((x, y) => x[0].localeCompare(y[0]));
}

function main(): void {
  const seed = readSeedCaptions();
  for (let k = 1; k <= 5; k++) {
    const top = seedPairs(seed, k).filter((p) => p.similarity < 1 && p.similarity >= 0.85);
    console.log(`k=${k}: ${top.map((p) => `${p.a}/${p.b} ${p.similarity.toFixed(3)}`).join(', ')}`);
  }
  console.log(`identical after cleaning: ${seedPairs(seed, 2).filter((p) => p.similarity === 1).map((p) => `${p.a}/${p.b}`).join(' ')}`);
  console.log(`clusters of 2+ at ${DEFAULT_DEDUP_THRESHOLD}: ${seedGroups(seed, DEFAULT_DEDUP_THRESHOLD).map((g) => `{${g.join(',')}}`).join(' ')}`);
}

if (require.main === module) main();
