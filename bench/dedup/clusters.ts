/**
 * `npm run bench:dedup`: the caption-cluster rule and its Redis index.
 *
 *   node dist-bench/bench/dedup/clusters.js [--n 1000000] [--chunk 500] [--skip-quality] [--skip-scale]
 *
 * 1. Quality on the labelled set (clusterSet.ts: real captions, every resend edit, hard negatives):
 *    B-cubed per edit kind and per hard-negative kind, brute force (SubjectClusterer) and index
 *    (SubjectIndex), index = brute force item by item, three arrival orders.
 * 2. Scale: N generated wire captions (generateCaptions.ts, cleaned as the old bench cleaned them)
 *    through the index in chunks of --chunk under its batch lock, as the finalize job sends them:
 *    captions/s (the time inside the index's calls) and Redis `used_memory` per caption, against the old index's 1M figures
 *    (4,461 captions/s, 847 B per caption: docs/DEDUP.md, 2026-12-02).
 * Uses its own key prefix and deletes it. Writes bench/results/clusters-<time>.json.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SubjectIndex } from '../../src/adapters/redis/captionIndexSubject';
import { SubjectClusterer } from '../../src/core/dedup/subjectClusterer';
import { fixed, formatTable, machineInfo, machineLine, writeResults } from '../common/report';
import { buildClusterSet } from './clusterSet';
import { samePartition, scoreClusterSet, threeOrders } from './clusterMeasure';
import { generateCaptions } from './generateCaptions';
import { simulateCleaning } from './seedCaptions';

const BASELINE = { capsPerSec: 4461, bytesPerCaption: 847 };

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const flag = (name: string) => process.argv.includes(name);

async function usedMemory(redis: Redis): Promise<number> {
  const m = /used_memory:(\d+)/.exec(await redis.info('memory'));
  return m ? Number(m[1]) : NaN;
}

async function assignAll(ix: SubjectIndex, items: ReadonlyArray<{ id: string; caption: string }>, chunk: number) {
  const out = new Map<string, string>();
  for (let i = 0; i < items.length; i += chunk) {
    const part = items.slice(i, i + chunk);
    const refs = await ix.withBatchLock('bench', () =>
      ix.assignMany(part.map((c) => ({ itemId: c.id, caption: c.caption }))),
    );
    part.forEach((c, j) => out.set(c.id, refs[j]?.id ?? `none:${c.id}`));
  }
  return out;
}

async function quality(redis: Redis) {
  const set = buildClusterSet();
  const orders = threeOrders(set);
  const brute: Array<Map<string, string>> = [];
  const indexed: Array<Map<string, string>> = [];
  let sameAsBrute = 0;
  for (const order of orders) {
    const c = new SubjectClusterer();
    const b = new Map(order.map((x) => [x.id, c.assign(x.id, x.caption)?.id ?? `none:${x.id}`]));
    const ix = new SubjectIndex(redis, { prefix: `pwbench:${randomBytes(6).toString('hex')}` });
    try {
      const got = await assignAll(ix, order, 500);
      for (const [id, cid] of b) if (got.get(id) === cid) sameAsBrute++;
      indexed.push(got);
    } finally {
      await ix.deleteAll();
    }
    brute.push(b);
  }
  const scores = scoreClusterSet(set, indexed[0]);
  const bruteScores = scoreClusterSet(set, brute[0]);
  return {
    captions: set.captions.length,
    originals: set.captions.filter((c) => c.edit === null).length,
    negativeSets: set.negatives.length,
    brute: { precision: bruteScores.overall.bcubedPrecision, recall: bruteScores.overall.bcubedRecall },
    index: { precision: scores.overall.bcubedPrecision, recall: scores.overall.bcubedRecall },
    edits: scores.edits,
    negatives: scores.negatives,
    merged: scores.merged,
    split: scores.split,
    indexEqualsBruteForce: sameAsBrute / (set.captions.length * orders.length),
    threeOrdersOnePartition:
      samePartition(indexed[0], indexed[1]) &&
      samePartition(indexed[0], indexed[2]) &&
      samePartition(brute[0], brute[1]) &&
      samePartition(brute[0], brute[2]),
  };
}

/**
 * The captions are generated chunk by chunk, outside the timed calls: a worker never holds a
 * million captions, and holding them here made every full collection of this process mark them
 * (the rate fell with the heap, not with the index).
 */
async function scale(redis: Redis, n: number, chunk: number) {
  const gen = generateCaptions({ seed: 7 });
  const ix = new SubjectIndex(redis, { prefix: `pwbench:${randomBytes(6).toString('hex')}` });
  try {
    await ix.open();
    const mem0 = await usedMemory(redis);
    const outcomes = { created: 0, joined: 0, known: 0 };
    let seconds = 0;
    let cpuUs = 0;
    let next = 100_000;
    for (let done = 0; done < n;) {
      const part: Array<{ itemId: string; caption: string }> = [];
      for (let i = done; i < Math.min(n, done + chunk); i++)
        part.push({
          itemId: `wire-night-a1b2c3d4e5f6-${String(i).padStart(7, '0')}`,
          caption: simulateCleaning((gen.next().value as { raw: string }).raw),
        });
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      await ix.withBatchLock('bench', () => ix.assignMany(part, outcomes));
      const cpu = process.cpuUsage(cpu0);
      seconds += (performance.now() - t0) / 1000;
      cpuUs += cpu.user + cpu.system;
      done += part.length;
      if (done >= next) {
        process.stderr.write(`  ${done} captions, ${Math.round(done / seconds)}/s\n`);
        next += 100_000;
      }
    }
    const mem1 = await usedMemory(redis);
    return {
      captions: n,
      clusters: outcomes.created,
      seconds,
      capsPerSec: n / seconds,
      nodeCpuUsPerCaption: cpuUs / n,
      bytesPerCaption: (mem1 - mem0) / n,
      vsBaseline: {
        throughput: n / seconds / BASELINE.capsPerSec,
        memory: BASELINE.bytesPerCaption / ((mem1 - mem0) / n),
      },
    };
  } finally {
    await ix.deleteAll();
  }
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const n = arg('--n', 1_000_000);
  const chunk = arg('--chunk', 500);
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const machine = machineInfo();
  console.log(machineLine(machine));
  try {
    const q = flag('--skip-quality') ? null : await quality(redis);
    if (q) {
      console.log(
        `\nLabelled set: ${q.captions} captions (${q.originals} originals, ${q.negativeSets} hard-negative sets)`,
      );
      console.log(
        `brute force B3 P ${q.brute.precision.toFixed(3)} R ${q.brute.recall.toFixed(3)}; index B3 P ${q.index.precision.toFixed(3)} R ${q.index.recall.toFixed(3)}`,
      );
      console.log(
        `index = brute force: ${(q.indexEqualsBruteForce * 100).toFixed(1)}% of answers; three orders, one partition: ${q.threeOrdersOnePartition}`,
      );
      console.log(
        formatTable(
          ['kind', 'captions', 'B3 precision', 'B3 recall'],
          [...q.edits, ...q.negatives].map((k) => [k.kind, k.captions, fixed(k.precision, 3), fixed(k.recall, 3)]),
        ),
      );
      if (q.split.length) console.log(`split: ${q.split.join(', ')}`);
      if (q.merged.length) console.log(`merged: ${q.merged.join(', ')}`);
    }
    const s = flag('--skip-scale') ? null : await scale(redis, n, chunk);
    if (s) {
      console.log(`\nScale: ${s.captions} generated captions -> ${s.clusters} clusters in ${s.seconds.toFixed(1)} s`);
      console.log(
        formatTable(
          ['measure', 'caption clusters', 'old index (1M)', 'ratio'],
          [
            ['captions/s', Math.round(s.capsPerSec), BASELINE.capsPerSec, fixed(s.vsBaseline.throughput, 2)],
            [
              'Redis bytes per caption',
              Math.round(s.bytesPerCaption),
              BASELINE.bytesPerCaption,
              fixed(s.vsBaseline.memory, 2),
            ],
            ['Node CPU us per caption', fixed(s.nodeCpuUsPerCaption, 1), null, null],
          ],
        ),
      );
    }
    const file = writeResults(
      'clusters',
      { machine, args: { n, chunk }, quality: q, scale: s, baseline: BASELINE },
      startedAt,
    );
    console.log(`\nresults: ${file}`);
  } finally {
    await redis.quit();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
