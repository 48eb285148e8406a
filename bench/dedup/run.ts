/**
 * Dedup bench: quality of the Redis caption index against brute force and against labels, then
 * throughput, latency and memory at scale.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/dedup/run.js [--n 1000000]
 *     [--concurrency 64] [--batch 16] [--quality 8000] [--redis redis://127.0.0.1:6379] [--skip-quality]
 *     [--skip-scale] [--no-exact-memory]
 *
 * Uses its own key prefix (photowire-bench:dedup:<pid>-<time>:) and deletes it at the end.
 * Writes bench/results/dedup-<date>T<time>Z.json.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { CaptionIndex, DEFAULT_ASSIGN_BATCH } from '../../src/adapters/redis/captionIndex';
import { ANCHOR_TOKENS, DEFAULT_DEDUP_THRESHOLD, LSH_BANDS, LSH_ROWS, SHINGLE_WORDS } from '../../src/core/dedup/params';
import { ReferenceClusterer } from '../../src/core/dedup/referenceClusterer';
import { generateCaptions, prng, seedVariants, type VariantKind } from './generateCaptions';
import { scoreClustering, samePartition, type Scores } from './scoring';
import { repoRoot } from '../common/paths';
import { readSeedCaptions, seedLabel, simulateCleaning } from './seedCaptions';

interface Args {
  n: number;
  concurrency: number;
  /** Most captions per script call (CaptionIndex batchSize); 1 = one call per caption. */
  batch: number;
  quality: number;
  redisUrl: string;
  skipQuality: boolean;
  skipScale: boolean;
  exactMemory: boolean;
  threshold: number;
}

function readArgs(): Args {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '1000000' },
      concurrency: { type: 'string', default: '64' },
      batch: { type: 'string', default: String(DEFAULT_ASSIGN_BATCH) },
      quality: { type: 'string', default: '8000' },
      redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
      threshold: { type: 'string', default: process.env.PHOTOWIRE_DEDUP_THRESHOLD ?? String(DEFAULT_DEDUP_THRESHOLD) },
      'skip-quality': { type: 'boolean', default: false },
      'skip-scale': { type: 'boolean', default: false },
      'no-exact-memory': { type: 'boolean', default: false },
    },
  });
  const int = (name: string, v: string, min: number) => {
    const x = Number(v);
    if (!Number.isInteger(x) || x < min) throw new Error(`--${name} must be an integer >= ${min}, got ${v}`);
    return x;
  };
  const threshold = Number(values.threshold);
  if (!(threshold > 0 && threshold <= 1)) throw new Error(`--threshold must be in (0, 1], got ${values.threshold}`);
  return {
    n: int('n', values.n!, 30_000),
    concurrency: int('concurrency', values.concurrency!, 1),
    batch: int('batch', values.batch!, 1),
    quality: int('quality', values.quality!, 100),
    redisUrl: values.redis!,
    skipQuality: values['skip-quality']!,
    skipScale: values['skip-scale']!,
    exactMemory: !values['no-exact-memory'],
    threshold,
  };
}

interface Labelled {
  id: string;
  family: string;
  kind: VariantKind;
  cleaned: string;
}

/** The seed (labelled by hand), four variants of each seed caption, then generated families. */
function labelledSet(size: number): Labelled[] {
  const r = prng(2012);
  const seedItems: Labelled[] = [];
  for (const s of readSeedCaptions()) {
    const family = seedLabel(s.n);
    seedItems.push({ id: `seed-${s.n}`, family, kind: 'base', cleaned: s.cleaned });
    seedVariants(r, s.raw, s.cleaned).forEach((v, i) =>
      seedItems.push({ id: `seed-${s.n}-v${i}`, family, kind: v.kind, cleaned: simulateCleaning(v.raw) }),
    );
  }
  // Variants arrive after their original, not necessarily right after it.
  const seedOrdered = [...seedItems.filter((x) => x.kind === 'base'), ...shuffle(r, seedItems.filter((x) => x.kind !== 'base'))];
  const out = [...seedOrdered];
  const gen = generateCaptions({ seed: 1, variantsPerFamily: 1.5 });
  for (let i = 0; out.length < size; i++) {
    const g = gen.next().value as { family: string; kind: VariantKind; raw: string };
    out.push({ id: `gen-${i}`, family: g.family, kind: g.kind, cleaned: simulateCleaning(g.raw) });
  }
  return out;
}

function shuffle<T>(r: () => number, xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function latencyStats(ms: Float64Array): { count: number; p50Ms: number; p99Ms: number; meanMs: number } {
  const s = Float64Array.from(ms).sort();
  return { count: s.length, p50Ms: percentile(s, 50), p99Ms: percentile(s, 99), meanMs: s.reduce((a, b) => a + b, 0) / s.length };
}

/** Assign items through `lanes` concurrent callers (round-robin over the given indexes). */
async function drive(
  indexes: CaptionIndex[],
  count: number,
  lanes: number,
  next: (i: number) => { id: string; caption: string },
  onDone: (i: number, clusterId: string | null, ms: number) => void,
): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: lanes }, async (_v, lane) => {
      const index = indexes[lane % indexes.length];
      for (;;) {
        const k = i++;
        if (k >= count) return;
        const { id, caption } = next(k);
        const t0 = performance.now();
        const ref = await index.assign(id, caption);
        onDone(k, ref?.id ?? null, performance.now() - t0);
      }
    }),
  );
}

async function quality(args: Args, prefixBase: string) {
  const set = labelledSet(args.quality);
  const labels = new Map(set.map((x) => [x.id, x.family]));

  const t0 = performance.now();
  const brute = new ReferenceClusterer(args.threshold); // captionSimilarity, what the index implements (layout v2)
  const bruteMap = new Map<string, string>();
  for (const x of set) bruteMap.set(x.id, brute.assign(x.id, x.cleaned)?.id ?? `none:${x.id}`);
  const bruteMs = performance.now() - t0;

  const conns = Array.from({ length: 8 }, () => new Redis(args.redisUrl));
  try {
    const run = async (name: string, order: Labelled[], lanes: number) => {
      const indexes = conns.slice(0, lanes).map((c) => new CaptionIndex(c, { prefix: `${prefixBase}q-${name}:`, threshold: args.threshold }));
      const map = new Map<string, string>();
      await drive(indexes, order.length, lanes, (k) => ({ id: order[k].id, caption: order[k].cleaned }), (k, cid) =>
        map.set(order[k].id, cid ?? `none:${order[k].id}`),
      );
      await indexes[0].deleteAll();
      return map;
    };
    const sequential = await run('seq', set, 1);
    const concurrentSameOrder = await run('c8', set, 8);
    const concurrentShuffled = await run('c8s', shuffle(prng(99), set), 8);

    const vsBrute = scoreClustering(sequential, bruteMap);
    const indexVsLabels = scoreClustering(sequential, labels);
    const bruteVsLabels = scoreClustering(bruteMap, labels);
    const baseOf = new Map(set.filter((x) => x.kind === 'base').map((x) => [x.family, x.id]));
    const byKind: Record<string, { variants: number; joinedOriginal: number; rate: number }> = {};
    for (const x of set) {
      if (x.kind === 'base') continue;
      const k = (byKind[x.kind] ??= { variants: 0, joinedOriginal: 0, rate: 0 });
      k.variants++;
      if (sequential.get(x.id) === sequential.get(baseOf.get(x.family)!)) k.joinedOriginal++;
    }
    for (const k of Object.values(byKind)) k.rate = k.joinedOriginal / k.variants;
    return {
      items: set.length,
      families: new Set(labels.values()).size,
      clustersBrute: new Set(bruteMap.values()).size,
      clustersIndex: new Set(sequential.values()).size,
      bruteForceMs: Math.round(bruteMs),
      indexVsBruteForce: vsBrute,
      indexVsLabels,
      bruteForceVsLabels: bruteVsLabels,
      variantJoinedOriginal: byKind,
      concurrent8SameOrder: { samePartitionAsSequential: samePartition(concurrentSameOrder, sequential), vsSequential: scoreClustering(concurrentSameOrder, sequential) },
      concurrent8Shuffled: { samePartitionAsSequential: samePartition(concurrentShuffled, sequential), vsSequential: scoreClustering(concurrentShuffled, sequential) },
    };
  } finally {
    for (const c of conns) c.disconnect();
  }
}

async function info(redis: Redis, section: string): Promise<Record<string, string>> {
  const text = await redis.info(section);
  return Object.fromEntries(
    text
      .split(/\r?\n/)
      .filter((l) => l.includes(':') && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]),
  );
}

function scriptStats(stats: Record<string, string>): { calls: number; usec: number } {
  let calls = 0;
  let usec = 0;
  for (const [k, v] of Object.entries(stats)) {
    if (k !== 'cmdstat_evalsha' && k !== 'cmdstat_eval') continue;
    calls += Number(/calls=(\d+)/.exec(v)?.[1] ?? 0);
    usec += Number(/usec=(\d+)/.exec(v)?.[1] ?? 0);
  }
  return { calls, usec };
}

/**
 * Commands run by the script, per caption (INFO commandstats counts a script's redis.call()s under
 * their own names): calls and microseconds of each, between two snapshots. What the script spends
 * outside them (EVALSHA usec minus these) is its Lua work: parsing buckets, verifying shingles.
 */
function commandBreakdown(before: Record<string, string>, after: Record<string, string>, captions: number): Record<string, { callsPerCaption: number; usPerCaption: number }> {
  const parse = (v: string | undefined) => ({ calls: Number(/calls=(\d+)/.exec(v ?? '')?.[1] ?? 0), usec: Number(/usec=(\d+)/.exec(v ?? '')?.[1] ?? 0) });
  const out: Record<string, { callsPerCaption: number; usPerCaption: number }> = {};
  for (const k of Object.keys(after)) {
    if (!k.startsWith('cmdstat_')) continue;
    const a = parse(after[k]);
    const b = parse(before[k]);
    if (a.calls - b.calls < captions / 100) continue; // other clients' traffic on a shared Redis
    out[k.slice('cmdstat_'.length)] = { callsPerCaption: +((a.calls - b.calls) / captions).toFixed(3), usPerCaption: +((a.usec - b.usec) / captions).toFixed(1) };
  }
  return out;
}

async function exactMemory(redis: Redis, match: string): Promise<{ keys: number; bytes: number; byKind: Record<string, { keys: number; bytes: number }> }> {
  let cursor = '0';
  let keys = 0;
  let bytes = 0;
  const byKind: Record<string, { keys: number; bytes: number }> = {};
  const base = match.slice(0, -1);
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 2000);
    cursor = next;
    if (batch.length === 0) continue;
    const pipe = redis.pipeline();
    for (const k of batch) pipe.memory('USAGE', k, 'SAMPLES', 0);
    const res = (await pipe.exec()) ?? [];
    batch.forEach((k, i) => {
      const b = Number(res[i][1] ?? 0);
      // Key base `{v2t0.5}:` (hash tag) since 2026-12-01, `v2t0.5:` before; `a` = the exact-words aliases.
      const kind = /^\{?v\d+t[^:}]*\}?:(b|c|m|i|a|sizes|meta)/.exec(k.slice(base.length))?.[1] ?? 'other';
      const e = (byKind[kind] ??= { keys: 0, bytes: 0 });
      e.keys++;
      e.bytes += b;
      keys++;
      bytes += b;
    });
  } while (cursor !== '0');
  return { keys, bytes, byKind };
}

async function scale(args: Args, prefixBase: string) {
  const redis = new Redis(args.redisUrl);
  const prefix = `${prefixBase}s:`;
  const index = new CaptionIndex(redis, { prefix, threshold: args.threshold, batchSize: args.batch });
  const PROBE = 1000;
  const WINDOW = 10_000;
  try {
    const gen = generateCaptions({ seed: 7 });
    const nightHex = 'a1b2c3d4e5f6';
    let produced = 0;
    const nextCaption = () => {
      const g = gen.next().value as { raw: string };
      const pos = produced++;
      return { id: `wire-night-${nightHex}-${String(pos).padStart(7, '0')}`, caption: simulateCleaning(g.raw) };
    };
    // Generate ahead so the driver measures the index, not the generator.
    const buffer: Array<{ id: string; caption: string }> = [];
    for (let i = 0; i < args.n; i++) buffer.push(nextCaption());
    const captionBytes = buffer.reduce((a, c) => a + Buffer.byteLength(c.caption), 0) / buffer.length;

    const memBefore = Number((await info(redis, 'memory')).used_memory);
    const cmdBefore = await info(redis, 'commandstats');
    const statsBefore = scriptStats(cmdBefore);
    const redisCpuBefore = await info(redis, 'cpu');
    const latency = new Float64Array(args.n);
    const clusters = new Set<string>();
    let taken = 0;
    const take = () => buffer[taken++];

    const phase = async (count: number, lanes: number) => {
      const start = taken;
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      await drive([index], count, lanes, () => take(), (k, cid, ms) => {
        latency[start + k] = ms;
        if (cid) clusters.add(cid);
      });
      const cpu = process.cpuUsage(cpu0);
      const ms = performance.now() - t0;
      return { count, ms, perSecond: (count / ms) * 1000, nodeCpuUsPerCaption: (cpu.user + cpu.system) / count };
    };

    const warm = await phase(WINDOW * 2 - PROBE, args.concurrency); // 0 .. 19k: the 10k window is 10k..19k
    const probeAt10k = await phase(PROBE, 1);
    const main = await phase(args.n - taken - PROBE, args.concurrency);
    const probeAtEnd = await phase(PROBE, 1);

    const cmdAfter = await info(redis, 'commandstats');
    const statsAfter = scriptStats(cmdAfter);
    const redisCpuAfter = await info(redis, 'cpu');
    const memAfter = Number((await info(redis, 'memory')).used_memory);
    const redisCpuSec =
      Number(redisCpuAfter.used_cpu_user_main_thread ?? redisCpuAfter.used_cpu_user) -
      Number(redisCpuBefore.used_cpu_user_main_thread ?? redisCpuBefore.used_cpu_user) +
      Number(redisCpuAfter.used_cpu_sys_main_thread ?? redisCpuAfter.used_cpu_sys) -
      Number(redisCpuBefore.used_cpu_sys_main_thread ?? redisCpuBefore.used_cpu_sys);
    const exact = args.exactMemory ? await exactMemory(redis, `${prefix}*`) : null;
    const totalMs = warm.ms + probeAt10k.ms + main.ms + probeAtEnd.ms;
    const scriptCalls = statsAfter.calls - statsBefore.calls;
    return {
      captions: args.n,
      clusters: clusters.size,
      meanCaptionBytes: Math.round(captionBytes),
      concurrency: args.concurrency,
      batchSize: args.batch,
      throughput: {
        overallPerSecond: Math.round((args.n / totalMs) * 1000),
        mainPhasePerSecond: Math.round(main.perSecond),
        nodeCpuUsPerCaption: +main.nodeCpuUsPerCaption.toFixed(1),
        redisCpuUsPerCaption: +((redisCpuSec * 1e6) / args.n).toFixed(1),
        scriptCallsPerCaption: +(scriptCalls / args.n).toFixed(3),
        redisScriptUsPerCall: scriptCalls > 0 ? +((statsAfter.usec - statsBefore.usec) / scriptCalls).toFixed(1) : null,
        commands: commandBreakdown(cmdBefore, cmdAfter, args.n),
      },
      latency: {
        pipelinedAt10k: latencyStats(latency.subarray(WINDOW, 2 * WINDOW - PROBE)),
        pipelinedAtEnd: latencyStats(latency.subarray(args.n - PROBE - WINDOW, args.n - PROBE)),
        isolatedAt10k: latencyStats(latency.subarray(2 * WINDOW - PROBE, 2 * WINDOW)),
        isolatedAtEnd: latencyStats(latency.subarray(args.n - PROBE, args.n)),
      },
      memory: {
        usedMemoryDeltaBytes: memAfter - memBefore,
        usedMemoryPerCaption: Math.round((memAfter - memBefore) / args.n),
        keyUsageBytes: exact?.bytes ?? null,
        keyUsagePerCaption: exact ? Math.round(exact.bytes / args.n) : null,
        keys: exact?.keys ?? null,
        byKind: exact?.byKind ?? null,
      },
    };
  } finally {
    await index.deleteAll();
    redis.disconnect();
  }
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

function printQuality(q: Awaited<ReturnType<typeof quality>>): void {
  const row = (name: string, s: Scores) =>
    `  ${name.padEnd(26)} B3 P ${pct(s.bcubedPrecision).padStart(8)}  R ${pct(s.bcubedRecall).padStart(8)}  F1 ${pct(s.bcubedF1).padStart(8)}   pairs P ${pct(s.pairwisePrecision).padStart(8)}  R ${pct(s.pairwiseRecall).padStart(8)}`;
  console.log(`quality: ${q.items} captions, ${q.families} labelled families; brute force ${q.clustersBrute} clusters, index ${q.clustersIndex}`);
  console.log(row('index vs brute force', q.indexVsBruteForce));
  console.log(row('brute force vs labels', q.bruteForceVsLabels));
  console.log(row('index vs labels', q.indexVsLabels));
  for (const [kind, k] of Object.entries(q.variantJoinedOriginal)) {
    console.log(`  variant ${kind.padEnd(12)} ${String(k.joinedOriginal).padStart(5)}/${String(k.variants).padEnd(5)} joined their original (${pct(k.rate)})`);
  }
  console.log(`  8 workers, same order:     same partition as 1 worker: ${q.concurrent8SameOrder.samePartitionAsSequential} (pairs R ${pct(q.concurrent8SameOrder.vsSequential.pairwiseRecall)} P ${pct(q.concurrent8SameOrder.vsSequential.pairwisePrecision)})`);
  console.log(`  8 workers, shuffled order: same partition as 1 worker: ${q.concurrent8Shuffled.samePartitionAsSequential} (pairs R ${pct(q.concurrent8Shuffled.vsSequential.pairwiseRecall)} P ${pct(q.concurrent8Shuffled.vsSequential.pairwisePrecision)})`);
}

function printScale(s: Awaited<ReturnType<typeof scale>>): void {
  const lat = (name: string, l: { p50Ms: number; p99Ms: number; count: number }) =>
    `  ${name.padEnd(34)} p50 ${l.p50Ms.toFixed(3).padStart(8)} ms   p99 ${l.p99Ms.toFixed(3).padStart(8)} ms   (${l.count} captions)`;
  console.log(`scale: ${s.captions} captions (mean ${s.meanCaptionBytes} bytes cleaned) -> ${s.clusters} clusters, ${s.concurrency} in flight on one connection, at most ${s.batchSize} per script call`);
  console.log(`  throughput                         ${s.throughput.overallPerSecond} captions/s overall, ${s.throughput.mainPhasePerSecond}/s main phase`);
  console.log(`  cpu per caption                    node ${s.throughput.nodeCpuUsPerCaption} us, redis ${s.throughput.redisCpuUsPerCaption} us (script ${s.throughput.redisScriptUsPerCall} us/call)`);
  console.log(`  commands per caption               ${Object.entries(s.throughput.commands).map(([k, v]) => `${k} ${v.callsPerCaption} (${v.usPerCaption} us)`).join(', ')}`);
  console.log(lat('pipelined, captions 10k-19k', s.latency.pipelinedAt10k));
  console.log(lat(`pipelined, last 10k`, s.latency.pipelinedAtEnd));
  console.log(lat('one at a time, at ~19k indexed', s.latency.isolatedAt10k));
  console.log(lat(`one at a time, at ${s.captions} indexed`, s.latency.isolatedAtEnd));
  console.log(`  redis memory per caption           ${s.memory.usedMemoryPerCaption} B (used_memory delta), ${s.memory.keyUsagePerCaption ?? '-'} B (sum of MEMORY USAGE over ${s.memory.keys ?? '-'} keys)`);
  if (s.memory.byKind) {
    for (const [k, v] of Object.entries(s.memory.byKind)) {
      console.log(`    ${k.padEnd(6)} ${String(v.keys).padStart(9)} keys ${(v.bytes / s.captions).toFixed(0).padStart(6)} B per caption`);
    }
  }
}

async function main(): Promise<void> {
  const args = readArgs();
  const prefixBase = `photowire-bench:dedup:${process.pid}-${Date.now()}:`;
  const started = new Date();
  // Throughput is only meaningful on an otherwise idle machine: the load average says whether it was.
  const loadBefore = os.loadavg()[0];
  console.log(`dedup bench: threshold ${args.threshold}, word ${SHINGLE_WORDS}-shingles, LSH ${LSH_BANDS} bands x ${LSH_ROWS} rows + anchors ${ANCHOR_TOKENS}, node ${process.version}, ${os.cpus().length} cpus, load ${loadBefore.toFixed(2)}`);
  const q = args.skipQuality ? null : await quality(args, prefixBase);
  if (q) printQuality(q);
  const s = args.skipScale ? null : await scale(args, prefixBase);
  if (s) printScale(s);
  const loadAfter = os.loadavg()[0];
  console.log(`load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)}`);
  const outDir = path.join(repoRoot(), 'bench', 'results');
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, `dedup-${started.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`);
  const command = ['node', ...process.execArgv, 'dist-bench/bench/dedup/run.js', ...process.argv.slice(2)].join(' ');
  fs.writeFileSync(
    out,
    `${JSON.stringify({ command, startedAt: started.toISOString(), node: process.version, cpus: os.cpus().length, loadAverage1m: { before: loadBefore, after: loadAfter }, threshold: args.threshold, shingleWords: SHINGLE_WORDS, lsh: { bands: LSH_BANDS, rows: LSH_ROWS }, quality: q, scale: s }, null, 2)}\n`,
  );
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
