/**
 * Caption-cluster quality on the labelled set (issue 12): pair recall per edit kind (an edited
 * caption in the same cluster as the caption it was made from), precision on the different-story
 * negatives (share of them whose cluster holds no other story) and B-cubed precision, recall, F1
 * against the labels, for the brute-force ReferenceClusterer (the oracle; no LSH).
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/dedup/measure.js
 *     [--threshold 0.5] [--measure caption|jaccard] [--sweep 0.4,0.45,0.5,0.55,0.6] [--rebuild]
 *
 * Reads test/fixtures/dedup/labelled.json (--rebuild: regenerates it in memory from
 * bench/dedup/labelledSet.ts instead). Captions are assigned in the set's order (originals, then
 * the edits shuffled), as a feed would send them.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_DEDUP_THRESHOLD } from '../../src/core/dedup/params';
import { ReferenceClusterer, type ReferenceOptions } from '../../src/core/dedup/referenceClusterer';
import { buildLabelledSet, readLabelledSet, type LabelledCaption } from './labelledSet';
import { scoreClustering, type Scores } from './scoring';
import { EDIT_KINDS } from './wireEdits';

export interface Quality {
  threshold: number;
  measure: 'caption' | 'jaccard';
  bcubed: Scores;
  /** Edit kind -> { pairs, joined, recall }. */
  byKind: Record<string, { pairs: number; joined: number; recall: number }>;
  negatives: { captions: number; alone: number; precision: number };
  /** Clusters of 2+ seed originals (item numbers). */
  seedGroups: string[][];
}

export function measureQuality(captions: readonly LabelledCaption[], threshold: number, opts: ReferenceOptions = {}): Quality {
  const ref = new ReferenceClusterer(threshold, opts);
  const pred = new Map<string, string>();
  for (const c of captions) pred.set(c.id, ref.assign(c.id, c.cleaned)?.id ?? `none:${c.id}`);
  const labels = new Map(captions.map((c) => [c.id, c.family]));
  const byKind: Quality['byKind'] = {};
  for (const kind of EDIT_KINDS) byKind[kind] = { pairs: 0, joined: 0, recall: 0 };
  for (const c of captions) {
    if (c.of === null) continue;
    const k = byKind[c.kind];
    k.pairs++;
    if (pred.get(c.id) === pred.get(c.of)) k.joined++;
  }
  for (const k of Object.values(byKind)) k.recall = k.pairs === 0 ? 1 : k.joined / k.pairs;
  const members = new Map<string, LabelledCaption[]>();
  for (const c of captions) {
    const p = pred.get(c.id)!;
    const list = members.get(p) ?? [];
    list.push(c);
    members.set(p, list);
  }
  const negatives = captions.filter((c) => c.kind === 'negative');
  const alone = negatives.filter((c) => members.get(pred.get(c.id)!)!.every((o) => o.family === c.family)).length;
  const seedGroups = [...members.values()]
    .map((m) => m.filter((c) => c.kind === 'base' && c.id.startsWith('seed-')).map((c) => c.id.slice(5)).sort())
    .filter((g) => g.length > 1)
    .sort((a, b) => a[0].localeCompare(b[0]));
  return {
    threshold,
    measure: opts.measure ?? 'caption',
    bcubed: scoreClustering(pred, labels),
    byKind,
    negatives: { captions: negatives.length, alone, precision: negatives.length === 0 ? 1 : alone / negatives.length },
    seedGroups,
  };
}

const f3 = (x: number) => x.toFixed(3);

export function qualityTable(q: Quality): string {
  const lines = [
    `| edit kind | pairs | joined | pair recall |`,
    `|---|---|---|---|`,
    ...Object.entries(q.byKind).map(([k, v]) => `| ${k} | ${v.pairs} | ${v.joined} | ${f3(v.recall)} |`),
    `| **different stories, one house template** (negatives) | ${q.negatives.captions} | ${q.negatives.alone} kept apart | precision **${f3(q.negatives.precision)}** |`,
    '',
    `B-cubed precision ${f3(q.bcubed.bcubedPrecision)}, recall ${f3(q.bcubed.bcubedRecall)}, **F1 ${f3(q.bcubed.bcubedF1)}** (${q.bcubed.items} captions; pairwise precision ${f3(q.bcubed.pairwisePrecision)}, recall ${f3(q.bcubed.pairwiseRecall)})`,
    `Seed clusters: ${q.seedGroups.map((g) => `{${g.join(',')}}`).join(' ')}`,
  ];
  return lines.join('\n');
}

function main(): void {
  const { values } = parseArgs({
    options: {
      threshold: { type: 'string', default: String(DEFAULT_DEDUP_THRESHOLD) },
      measure: { type: 'string', default: 'caption' },
      sweep: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
    },
  });
  const measure = values.measure === 'jaccard' ? 'jaccard' : 'caption';
  const set = values.rebuild ? buildLabelledSet() : readLabelledSet();
  if (values.sweep) {
    console.log(`| threshold | B³ P | B³ R | B³ F1 | worst edit kind | negatives precision | seed clusters |`);
    console.log(`|---|---|---|---|---|---|---|`);
    for (const t of values.sweep.split(',').map(Number)) {
      const q = measureQuality(set.captions, t, { measure });
      const worst = Object.entries(q.byKind).sort((a, b) => a[1].recall - b[1].recall)[0];
      console.log(`| ${t} | ${f3(q.bcubed.bcubedPrecision)} | ${f3(q.bcubed.bcubedRecall)} | ${f3(q.bcubed.bcubedF1)} | ${worst[0]} ${f3(worst[1].recall)} | ${f3(q.negatives.precision)} | ${q.seedGroups.map((g) => `{${g.join(',')}}`).join(' ')} |`);
    }
    return;
  }
  console.log(`measure ${measure}, threshold ${values.threshold}, ${set.captions.length} labelled captions`);
  console.log(qualityTable(measureQuality(set.captions, Number(values.threshold), { measure })));
}

if (require.main === module) main();
