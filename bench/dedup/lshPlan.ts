/**
 * Candidate generation for issue 12's caption similarity, simulated in memory before it goes into
 * the Redis script: which LSH layout finds what the brute-force ReferenceClusterer finds, at what
 * candidate count. Not the index: no Redis, no bucket capacity, no verification cap.
 *
 * Layout simulated: MinHash bands over the whole bigram set (bands x rows), plus two anchors, the
 * caption's first and its last `anchor` tokens (a cut at 200 characters or an appended sentence
 * keeps the first, a removed first sentence keeps the last: containment pairs have a Jaccard far
 * below any band's reach, ~0.35 for a 200-character cut of a 500-character caption). A member
 * that joins a cluster (not exactly) adds its bands and anchors to that cluster, so a later edit of
 * the member is found too (seed 08 cut short, 08 being in 01's cluster).
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/dedup/lshPlan.js [--generated 5000] [--scale 100000]
 */
import { parseArgs } from 'node:util';
import { hashString32 } from '../../src/core/dedup/hash32';
import { lshBands, minhashSignature } from '../../src/core/dedup/minhash';
import { matchTokens } from '../../src/core/dedup/normalize';
import { CONTAINMENT_DISCOUNT, DEFAULT_DEDUP_THRESHOLD, MAX_EXTRA_SHINGLES, MIN_CONTAINED_SHINGLES } from '../../src/core/dedup/params';
import { shingleHashes } from '../../src/core/dedup/shingles';
import { captionSimilarity, intersectionSize } from '../../src/core/dedup/similarity';
import { generateCaptions } from './generateCaptions';
import { readLabelledSet } from './labelledSet';
import { scoreClustering } from './scoring';
import { simulateCleaning } from './seedCaptions';

export interface Layout {
  bands: number;
  rows: number;
  /** Tokens of the first/last anchors; 0 = no anchors. */
  anchor: number;
}

interface Cluster {
  shingles: Uint32Array;
  extra: Set<number>;
}

function bandKeys(tokens: string[], shingles: Uint32Array, l: Layout): string[] {
  const out = lshBands(minhashSignature(shingles, l.bands * l.rows), l.bands, l.rows).map((b) => `${b.band}:${b.hi}:${b.lo}`);
  if (l.anchor > 0 && tokens.length >= l.anchor) {
    out.push(`h:${hashString32(tokens.slice(0, l.anchor).join(' '))}`, `t:${hashString32(tokens.slice(-l.anchor).join(' '))}`);
  }
  return out;
}

/** Cluster captions in order, with LSH candidates (layout) or brute force (null). */
export function simulate(captions: Array<{ id: string; cleaned: string }>, layout: Layout | null, threshold = DEFAULT_DEDUP_THRESHOLD) {
  const clusters: Cluster[] = [];
  const buckets = new Map<string, number[]>();
  const pred = new Map<string, string>();
  let candidates = 0;
  for (const c of captions) {
    const tokens = matchTokens(c.cleaned);
    const sh = shingleHashes(tokens, 2);
    if (sh.length === 0) {
      pred.set(c.id, `none:${c.id}`);
      continue;
    }
    const keys = layout ? bandKeys(tokens, sh, layout) : [];
    let pool: number[];
    if (layout) {
      const ids = new Set<number>();
      for (const k of keys) for (const q of buckets.get(k) ?? []) ids.add(q);
      pool = [...ids];
      candidates += pool.length;
    } else pool = clusters.map((_c, i) => i);
    let best = -1;
    let bestSim = -1;
    for (const q of pool) {
      const o = clusters[q];
      const inter = intersectionSize(o.shingles, sh);
      let interAll = inter;
      if (o.extra.size > 0) for (const h of sh) if (o.extra.has(h)) interAll++;
      const s = captionSimilarity({ inter, interAll, canonical: o.shingles.length, caption: sh.length }, CONTAINMENT_DISCOUNT, MIN_CONTAINED_SHINGLES);
      if (s >= threshold && (s > bestSim || (s === bestSim && q < best))) {
        bestSim = s;
        best = q;
      }
    }
    const index = (q: number) => {
      for (const k of keys) {
        const list = buckets.get(k) ?? [];
        if (!list.includes(q)) list.push(q);
        buckets.set(k, list);
      }
    };
    if (best < 0) {
      clusters.push({ shingles: sh, extra: new Set() });
      index(clusters.length - 1);
      pred.set(c.id, `c${clusters.length - 1}`);
    } else {
      const o = clusters[best];
      pred.set(c.id, `c${best}`);
      const own = new Set(o.shingles);
      for (const h of sh) if (!own.has(h) && o.extra.size < MAX_EXTRA_SHINGLES) o.extra.add(h);
      if (bestSim < 1) index(best);
    }
  }
  let longest = 0;
  for (const l of buckets.values()) longest = Math.max(longest, l.length);
  return { pred, candidatesPerCaption: candidates / captions.length, buckets: buckets.size, longestBucket: longest, clusters: clusters.length };
}

function generated(n: number, seed: number): Array<{ id: string; cleaned: string }> {
  const g = generateCaptions({ seed, variantsPerFamily: 1.5 });
  return Array.from({ length: n }, (_v, i) => ({ id: `g${i}`, cleaned: simulateCleaning((g.next().value as { raw: string }).raw) }));
}

function main(): void {
  const { values } = parseArgs({ options: { generated: { type: 'string', default: '5000' }, scale: { type: 'string', default: '100000' } } });
  const layouts: Layout[] = [
    { bands: 8, rows: 8, anchor: 0 },
    { bands: 8, rows: 4, anchor: 0 },
    { bands: 8, rows: 4, anchor: 12 },
    { bands: 8, rows: 3, anchor: 12 },
    { bands: 12, rows: 3, anchor: 12 },
  ];
  const sets: Array<[string, Array<{ id: string; cleaned: string }>]> = [
    ['labelled', readLabelledSet().captions],
    [`generated ${values.generated}`, generated(Number(values.generated), 1)],
  ];
  console.log('| layout | set | pair recall vs brute force | pair precision | candidates per caption |');
  console.log('|---|---|---|---|---|');
  for (const [name, caps] of sets) {
    const brute = simulate(caps, null).pred;
    for (const l of layouts) {
      const r = simulate(caps, l);
      const s = scoreClustering(r.pred, brute);
      console.log(`| ${l.bands}x${l.rows}${l.anchor ? ` + anchors ${l.anchor}` : ''} | ${name} | ${s.pairwiseRecall.toFixed(4)} | ${s.pairwisePrecision.toFixed(4)} | ${r.candidatesPerCaption.toFixed(2)} |`);
    }
  }
  // Candidates per caption as the index grows (flat is what keeps p99 flat).
  const n = Number(values.scale);
  const caps = generated(n, 7);
  console.log('\n| layout | captions | candidates per caption | longest bucket |');
  console.log('|---|---|---|---|');
  for (const l of layouts.slice(2)) {
    for (const size of [n / 10, n]) {
      const r = simulate(caps.slice(0, size), l);
      console.log(`| ${l.bands}x${l.rows} + anchors ${l.anchor} | ${size} | ${r.candidatesPerCaption.toFixed(2)} | ${r.longestBucket} |`);
    }
  }
}

if (require.main === module) main();
