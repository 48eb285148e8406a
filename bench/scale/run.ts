/**
 * Scale bench ("Measured"): a year of nights in one Redis. At each catalog size it
 * reports Redis memory per item (used_memory delta, MEMORY USAGE by key family), HTTP latency of
 * the desk's reads against a real `photowire serve`, and peak RSS; end-to-end ingest throughput of
 * caption-only items with 1, 2 and 4 `photowire worker` processes fed by `photowire ingest --wait`.
 *
 *   npm run bench:scale -- [--items 10000,100000,1000000] [--e2e 10000,100000] [--workers 1,2,4]
 *     [--quick] [--rounds N] [--requests N] [--redis URL] [--no-catalog] [--concurrency N]
 *     [--nights N] [--no-retention]
 *     [--baseline DIR] [--baseline-concurrency N] [--chunk-size N]
 *
 * --baseline DIR: another build of photowire (a checkout with its own `dist/`, e.g. main's, built
 * apart) run end to end too, each of its runs just before this build's at the same size and
 * workers, on the same Redis: figures side by side from one run. --no-catalog: end to end only.
 * --concurrency N: PHOTOWIRE_CONCURRENCY of the workers (both builds, unless --baseline-concurrency
 * N gives the baseline's: one job per item needs many in flight, chunks few); --chunk-size N:
 * PHOTOWIRE_CHUNK_SIZE of this build's runs (the baseline gets it too; a build before chunks ignores it).
 *
 * How the catalog is built: end to end (real workers) at the --e2e sizes; the catalog sizes
 * (--items) by writing records straight through CatalogStore.markItem (the atomic step the worker
 * uses), cloned from the records the real workers produced at the first e2e size (real credits,
 * clusters, captions), as --nights nights (default 10) of size/nights items, at most 100,000 each:
 * 10k is ten nights of 1,000, 1M ten of 100,000, so the batch list (newest 50) lists the same
 * rows at every size and what grows is the items, not the rows returned. The table says which.
 *
 * Retention (unless --no-retention): after the reads at each size, every night is closed as
 * finalize closes a batch (records.ndjson and summary.json in the serve's data folder, the ledger
 * done), then `photowire retention --now <now + PHOTOWIRE_RETENTION_DAYS + 1 day>` runs as a
 * process: the table gives Redis memory after it and the keys left by family (nothing should
 * be left of a removed night but its archived-index row).
 *
 * Default Redis: a private redis-server on a free port (never 6379's data). --redis URL uses that
 * one under a private prefix, removed after (SCAN + UNLINK, never FLUSH).
 * Needs `npm run build` (bin/photowire.js). Writes bench/results/scale-<timestamp>.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { CatalogStore } from '../../src/adapters/redis/catalogStore';
import { freePort, startPrivateRedis } from '../../src/adapters/redis/ensureRedis';
import { deletePrefixKeys } from '../../src/adapters/redis/scan';
import { StorageBatchExports } from '../../src/adapters/storage/batchExports';
import { createStorage } from '../../src/adapters/storage/openStorage';
import { parseStorageConfig } from '../../src/config';
import { ndjson } from '../../src/app/batches/finalizeBatch';
import { summarizeBatch } from '../../src/app/batches/summarizeBatch';
import type { CatalogRecord } from '../../src/schemas/record';
import { generateCaptions } from '../dedup/generateCaptions';
import { runMeasured } from '../common/measure';
import { removeDir, repoRoot, scratchDir } from '../common/paths';
import { fixed, formatTable, machineInfo, machineLine, writeResults } from '../common/report';
import { findGnuTime } from '../common/tools';
import { binArgv } from '../../test/helpers/bin';

const NIGHT = 100_000;
/** PHOTOWIRE_RETENTION_DAYS's default (src/config.ts): the bench's retention pass runs a day past it. */
const RETENTION_DAYS = 30;
const BIN = () => path.join(repoRoot(), 'bin', 'photowire.js');
/** The build an end-to-end run uses: this one, or --baseline's. */
interface Build {
  label: string;
  bin: string;
}

interface Args {
  quick: boolean;
  items: number[];
  e2e: number[];
  workers: number[];
  requests: number;
  redisUrl: string | null;
  catalog: boolean;
  baseline: string | null;
  concurrency: number | null;
  /** PHOTOWIRE_CONCURRENCY of the --baseline build's workers (default: --concurrency). */
  baselineConcurrency: number | null;
  chunkSize: number | null;
  /** Nights per catalog size (each size/nights items, at most NIGHT). */
  nights: number;
  retention: boolean;
}

function readArgs(argv: string[]): Args {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      items: { type: 'string' },
      e2e: { type: 'string' },
      workers: { type: 'string' },
      requests: { type: 'string' },
      redis: { type: 'string' },
      'no-catalog': { type: 'boolean', default: false },
      baseline: { type: 'string' },
      concurrency: { type: 'string' },
      'baseline-concurrency': { type: 'string' },
      'chunk-size': { type: 'string' },
      nights: { type: 'string' },
      'no-retention': { type: 'boolean', default: false },
    },
  });
  const list = (name: string, v: string | undefined, dflt: string) =>
    (v ?? dflt).split(',').map((x) => {
      const n = Number(x.trim());
      if (!Number.isInteger(n) || n < 1)
        throw new Error(`--${name} takes whole numbers of 1 or more, comma-separated; got ${x}`);
      return n;
    });
  const quick = values.quick!;
  return {
    quick,
    items: list('items', values.items, quick ? '10000,100000' : '10000,100000,1000000').sort((a, b) => a - b),
    e2e: list('e2e', values.e2e, quick ? '10000' : '10000,100000'),
    workers: list('workers', values.workers, '1,2,4'),
    requests: list('requests', values.requests, quick ? '60' : '300')[0],
    redisUrl: values.redis ?? null,
    catalog: !values['no-catalog'],
    baseline: values.baseline ? path.resolve(values.baseline) : null,
    concurrency: values.concurrency ? list('concurrency', values.concurrency, '')[0] : null,
    baselineConcurrency: values['baseline-concurrency']
      ? list('baseline-concurrency', values['baseline-concurrency'], '')[0]
      : null,
    chunkSize: values['chunk-size'] ? list('chunk-size', values['chunk-size'], '')[0] : null,
    nights: list('nights', values.nights, '10')[0],
    retention: !values['no-retention'],
  };
}

// ---------------------------------------------------------------- feeds

/** Caption-only NDJSON items with wire captions whose tails carry credits in the shapes the rules know. */
function manifest(dir: string, count: number, seed: number): string {
  const gen = generateCaptions({ seed, variantsPerFamily: 0.6 });
  const file = path.join(dir, `night-${count}-${seed}.ndjson`);
  const fd = fs.openSync(file, 'w');
  let buf: string[] = [];
  for (let i = 0; i < count; i++) {
    buf.push(
      JSON.stringify({ id: `scale-${seed}-${i + 1}`, caption: gen.next().value!.raw, headline: `Night item ${i + 1}` }),
    );
    if (buf.length === 5000) {
      fs.writeSync(fd, `${buf.join('\n')}\n`);
      buf = [];
    }
  }
  if (buf.length) fs.writeSync(fd, `${buf.join('\n')}\n`);
  fs.closeSync(fd);
  return file;
}

// ---------------------------------------------------------------- processes

function hwmMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? +(Number(m[1]) / 1024).toFixed(1) : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a live process has used, from /proc/<pid>/stat. */
function cpuS(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

/** Start a long-running photowire command and resolve when a stderr/stdout line contains `ready`. */
function startLong(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: string,
  bin = BIN(),
  onLine?: (line: string) => void,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...binArgv(bin).slice(1), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    let done = false;
    let partial = '';
    const look = (d: Buffer) => {
      if (onLine) {
        const lines = (partial + String(d)).split('\n');
        partial = lines.pop()!;
        for (const l of lines) onLine(l);
      }
      tail = (tail + String(d)).slice(-4000);
      if (!done && tail.includes(ready)) {
        done = true;
        resolve(child);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      if (!done)
        reject(new Error(`photowire ${args.join(' ')} exited ${code} before "${ready}": ${tail.trim().slice(-600)}`));
    });
    setTimeout(() => {
      if (!done) {
        child.kill('SIGKILL');
        reject(new Error(`photowire ${args.join(' ')}: no "${ready}" in 60 s: ${tail.trim().slice(-600)}`));
      }
    }, 60_000).unref();
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function baseEnv(redisUrl: string, prefix: string, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: redisUrl,
    PHOTOWIRE_PREFIX: prefix,
    PHOTOWIRE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PHOTOWIRE_API_RATE_LIMIT: '1000000',
  };
  for (const k of ['PHOTOWIRE_STORAGE', 'S3_ENDPOINT', 'PHOTOWIRE_API_TOKEN', 'PHOTOWIRE_REDIS_CLUSTER']) delete env[k];
  return env;
}

// ---------------------------------------------------------------- Redis memory

async function usedMemory(r: Redis): Promise<number> {
  const info = await r.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

/** A key's family: prefix and batch id out, hex ids and index values folded, so keys group by kind. */
function family(key: string, prefix: string, batches: string[]): string {
  let k = key.replace(/[{}]/g, '');
  if (k.startsWith(`${prefix}:`)) k = k.slice(prefix.length + 1);
  for (const b of batches) if (k.includes(b)) k = k.split(b).join('<batch>');
  k = k.replace(/\b[0-9a-f]{12,}\b/g, '<id>');
  const parts = k.split(':');
  const ix = parts.indexOf('ix');
  if (ix >= 0) return [...parts.slice(0, ix + 2), '*'].join(':');
  const bull = parts[0] === 'bull' || parts.includes('bull');
  if (bull) return parts.slice(0, 3).join(':') + (parts.length > 3 ? ':*' : '');
  return parts.map((p) => (/\d{3,}/.test(p) ? '<n>' : p)).join(':');
}

interface Families {
  keys: number;
  bytes: number;
  byFamily: Array<{ family: string; keys: number; bytes: number }>;
}

async function memoryByFamily(r: Redis, prefix: string, batches: string[]): Promise<Families> {
  const acc = new Map<string, { keys: number; bytes: number }>();
  let keys = 0;
  let bytes = 0;
  for (const match of [`${prefix}:*`, `{${prefix}*`, `bull:${prefix}*`, `*${prefix}*`]) {
    let cursor = '0';
    do {
      const [next, found] = await r.scan(cursor, 'MATCH', match, 'COUNT', 2000);
      cursor = next;
      const fresh = found.filter((k) => !acc.has(`seen:${k}`));
      if (!fresh.length) continue;
      const p = r.pipeline();
      for (const k of fresh) p.call('MEMORY', 'USAGE', k, 'SAMPLES', '0');
      const out = (await p.exec()) ?? [];
      fresh.forEach((k, i) => {
        acc.set(`seen:${k}`, { keys: 0, bytes: 0 });
        const b = Number(out[i]?.[1] ?? 0);
        const f = family(k, prefix, batches);
        const e = acc.get(f) ?? { keys: 0, bytes: 0 };
        e.keys++;
        e.bytes += b;
        acc.set(f, e);
        keys++;
        bytes += b;
      });
    } while (cursor !== '0');
  }
  const byFamily = [...acc.entries()]
    .filter(([f]) => !f.startsWith('seen:'))
    .map(([f, e]) => ({ family: f, ...e }))
    .sort((a, b) => b.bytes - a.bytes);
  return { keys, bytes, byFamily };
}

// ---------------------------------------------------------------- end to end

interface E2eRun {
  /** Which build ran: `this` or the --baseline's label. */
  build: string;
  items: number;
  workers: number;
  concurrency: number | null;
  ok: number;
  failed: number;
  wallMs: number;
  itemsPerS: number;
  workerPeakRssMb: number[];
  /** CPU ms per item of the workers together and of `ingest --wait`: what the item costs, whatever the box's load. */
  workerCpuMsPerItem: number | null;
  ingestCpuMsPerItem: number | null;
  usedMemoryDelta: number | null;
  /** Redis's own CPU (INFO cpu, used_cpu_user + used_cpu_sys) per item: meaningful on a private redis-server. */
  redisCpuMsPerItem: number | null;
  /** The finalize job's time (the worker's "batch done" durationMs). */
  finalizeS: number | null;
  loadAvg: number[];
  error: string | null;
}

async function redisCpuS(r: Redis): Promise<number> {
  const info = await r.info('cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1]);
}

interface E2eOpts {
  build: Build;
  concurrency: number | null;
  chunkSize: number | null;
}

async function e2eRun(
  redisUrl: string,
  feed: string,
  items: number,
  workers: number,
  keep: boolean,
  log: (s: string) => void,
  o: E2eOpts = { build: { label: 'this', bin: BIN() }, concurrency: null, chunkSize: null },
): Promise<{ run: E2eRun; prefix: string; dataDir: string; batchId: string | null }> {
  const prefix = `pwscale-e2e-${process.pid}-${items}-${workers}-${Date.now().toString(36)}`;
  const dataDir = scratchDir('scale-data');
  const env = baseEnv(redisUrl, prefix, dataDir);
  if (o.concurrency) env.PHOTOWIRE_CONCURRENCY = String(o.concurrency);
  if (o.chunkSize) env.PHOTOWIRE_CHUNK_SIZE = String(o.chunkSize);
  const r = new Redis(redisUrl);
  const before = await usedMemory(r);
  const procs: ChildProcess[] = [];
  let batchId: string | null = null;
  let finalizeMs: number | null = null;
  const onLine = (line: string) => {
    if (!line.includes('"batch done"')) return;
    try {
      finalizeMs = Number((JSON.parse(line) as { durationMs?: number }).durationMs ?? NaN);
    } catch {
      // not a JSON line
    }
  };
  const tag = `${o.build.label}: e2e ${items} items, ${workers} worker(s)`;
  try {
    for (let i = 0; i < workers; i++)
      procs.push(await startLong(['worker'], { ...env, LOG_LEVEL: 'info' }, 'worker ready', o.build.bin, onLine));
    const cpu0 = procs.map((p) => cpuS(p.pid) ?? 0);
    const redisCpu0 = await redisCpuS(r);
    const gnu = findGnuTime();
    const m = await runMeasured(
      process.execPath,
      [...binArgv(o.build.bin).slice(1), 'ingest', '--wait', '--json', feed],
      { env, maxOutputBytes: 4 * 1024 * 1024, gnuTime: gnu.found ? gnu.path : null },
    );
    const rss = procs.map((p) => hwmMb(p.pid) ?? NaN);
    const workerCpu = procs.reduce((a, p, i) => a + ((cpuS(p.pid) ?? NaN) - cpu0[i]), 0);
    const redisCpu = (await redisCpuS(r)) - redisCpu0;
    // the "batch done" line may follow the ledger's close by a moment
    for (let i = 0; i < 20 && finalizeMs === null; i++) await new Promise((res) => setTimeout(res, 50));
    if (m.exitCode !== 0) throw new Error(`ingest exited ${m.exitCode}: ${m.stderr.trim().slice(-500)}`);
    const out = JSON.parse(m.stdout) as unknown;
    const batches = (Array.isArray(out) ? out : ((out as { batches?: unknown[] }).batches ?? [out])) as Array<
      Record<string, unknown>
    >;
    const b = batches[0] ?? {};
    batchId = String(b.batchId ?? b.id ?? '') || null;
    const ok = Number(b.ok ?? 0);
    const failed = Number(b.failed ?? 0);
    const delta = (await usedMemory(r)) - before;
    const fin = finalizeMs as number | null;
    const run: E2eRun = {
      build: o.build.label,
      items,
      workers,
      concurrency: o.concurrency,
      ok,
      failed,
      wallMs: m.wallMs,
      itemsPerS: items / (m.wallMs / 1000),
      workerPeakRssMb: rss,
      workerCpuMsPerItem: (workerCpu * 1000) / items,
      ingestCpuMsPerItem: m.userS === null ? null : ((m.userS + m.sysS!) * 1000) / items,
      usedMemoryDelta: delta,
      redisCpuMsPerItem: (redisCpu * 1000) / items,
      finalizeS: fin === null || !Number.isFinite(fin) ? null : fin / 1000,
      loadAvg: os.loadavg(),
      error: failed ? `${failed} failed` : null,
    };
    log(
      `  ${tag}: ${(m.wallMs / 1000).toFixed(1)} s, ${run.itemsPerS.toFixed(0)} items/s, worker RSS ${rss.join('/')} MB, worker CPU ${fixed(run.workerCpuMsPerItem, 2)} ms/item, Redis CPU ${fixed(run.redisCpuMsPerItem, 3)} ms/item, finalize ${fixed(run.finalizeS, 1)} s, ingest CPU ${fixed(run.ingestCpuMsPerItem, 2)} ms/item, used_memory +${(delta / 2 ** 20).toFixed(1)} MB (load ${fixed(os.loadavg()[0], 1)})`,
    );
    return { run, prefix, dataDir, batchId };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    log(`  ${tag}: FAILED ${msg}`);
    const run: E2eRun = {
      build: o.build.label,
      items,
      workers,
      concurrency: o.concurrency,
      ok: 0,
      failed: 0,
      wallMs: NaN,
      itemsPerS: NaN,
      workerPeakRssMb: [],
      workerCpuMsPerItem: null,
      ingestCpuMsPerItem: null,
      usedMemoryDelta: null,
      redisCpuMsPerItem: null,
      finalizeS: null,
      loadAvg: os.loadavg(),
      error: msg,
    };
    return { run, prefix, dataDir, batchId };
  } finally {
    for (const p of procs) await stop(p);
    await r.quit();
    if (!keep) {
      await cleanup(redisUrl, prefix);
      removeDir(dataDir);
    }
  }
}

async function cleanup(redisUrl: string, prefix: string): Promise<void> {
  const r = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await deletePrefixKeys(r, prefix);
  } finally {
    await r.quit();
  }
}

// ---------------------------------------------------------------- catalog by the store

/** Clone real records into a night: new ids, batch, index; cluster ids kept per night (a cluster index per batch). */
function cloneInto(sample: CatalogRecord[], night: string, i: number): CatalogRecord {
  const s = sample[i % sample.length];
  const id = `${night}-${String(i + 1).padStart(6, '0')}`;
  const round = Math.floor(i / sample.length);
  const cluster = s.cluster
    ? {
        ...s.cluster,
        id: round === 0 ? s.cluster.id : (BigInt(`0x${s.cluster.id}`) ^ BigInt(round)).toString(16).padStart(16, '0'),
        canonicalId: `${night}-${s.cluster.canonicalId.split('-').pop()}`,
      }
    : null;
  return { ...s, id, batchId: night, source: { ...s.source, position: i }, index: i, cluster } as CatalogRecord;
}

async function writeNight(store: CatalogStore, sample: CatalogRecord[], night: string, count: number): Promise<number> {
  const t0 = performance.now();
  await store.createBatch({
    id: night,
    feed: `/feeds/${night}.ndjson`,
    format: 'ndjson',
    expected: count,
    warnings: [],
    article: null,
  });
  for (let from = 0; from < count; from += 2000) {
    const chunk: Promise<void>[] = [];
    for (let i = from; i < Math.min(count, from + 2000); i++)
      chunk.push(store.markItem(cloneInto(sample, night, i), null));
    await Promise.all(chunk);
  }
  return performance.now() - t0;
}

// ---------------------------------------------------------------- HTTP latency

interface Latency {
  name: string;
  url: string;
  p50Ms: number;
  p99Ms: number;
  status: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function measureHttp(base: string, targets: Array<{ name: string; url: string }>, n: number): Promise<Latency[]> {
  const out: Latency[] = [];
  for (const t of targets) {
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < 5; i++) await (await fetch(base + t.url)).arrayBuffer(); // warm
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const res = await fetch(base + t.url);
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      status = res.status;
    }
    out.push({
      name: t.name,
      url: t.url,
      p50Ms: +pct(times, 50).toFixed(2),
      p99Ms: +pct(times, 99).toFixed(2),
      status,
    });
  }
  return out;
}

// ---------------------------------------------------------------- retention

interface RetentionResult {
  /** Nights the pass removed from Redis. */
  removed: number;
  /** Closing the nights (exports written, ledgers done), ms. */
  closeMs: number;
  /** The `photowire retention` process, wall ms. */
  passMs: number;
  exitCode: number;
  /** used_memory above the bench's start after the pass. */
  usedMemoryAfter: number;
  /** What is left under the catalog prefix, by family. */
  after: Families;
  bytesFreed: number | null;
}

/**
 * Close every night as finalize closes a batch (records.ndjson and summary.json in the data folder's
 * storage, the ledger done), then run one `photowire retention` a day past the window as its own
 * process, and measure what is left.
 */
async function retentionPass(
  r: Redis,
  store: CatalogStore,
  nights: Array<{ id: string; items: number }>,
  env: { redisUrl: string; prefix: string; dataDir: string; base: number; gnuTime: string | null },
  log: (s: string) => void,
): Promise<RetentionResult> {
  const exports = new StorageBatchExports(createStorage(parseStorageConfig({ PHOTOWIRE_DATA_DIR: env.dataDir })));
  const t0 = performance.now();
  for (const n of nights) {
    await exports.write(n.id, 'records.ndjson', ndjson(store.iterateRawRecords(n.id, n.items)));
    const closed = await store.finishBatch(n.id, null);
    if (closed.state !== 'done') throw new Error(`${n.id} did not close: ${JSON.stringify(closed)}`);
    const summary = await summarizeBatch({ catalog: store, exports }, n.id);
    await exports.write(n.id, 'summary.json', JSON.stringify(summary, null, 2) + '\n');
  }
  const closeMs = performance.now() - t0;
  const now = new Date(Date.now() + (RETENTION_DAYS + 1) * 24 * 3600 * 1000).toISOString();
  const m = await runMeasured(process.execPath, [...binArgv(BIN()).slice(1), 'retention', '--json', '--now', now], {
    env: { ...baseEnv(env.redisUrl, env.prefix, env.dataDir), PHOTOWIRE_RETENTION_DAYS: String(RETENTION_DAYS) },
    gnuTime: env.gnuTime,
    maxOutputBytes: 1 << 20,
  });
  let removed = 0;
  let bytesFreed: number | null = null;
  try {
    const out = JSON.parse(m.stdout) as { removed?: string[]; bytesFreed?: number | null };
    removed = out.removed?.length ?? 0;
    bytesFreed = out.bytesFreed ?? null;
  } catch {
    log(`  retention: output not JSON (exit ${m.exitCode}): ${(m.stderr || m.stdout).trim().slice(-300)}`);
  }
  // UNLINK frees big values in Redis's background thread: wait for it before reading used_memory.
  for (let i = 0; i < 100 && /lazyfree_pending_objects:([1-9]\d*)/.test(await r.info('memory')); i++)
    await new Promise((res) => setTimeout(res, 100));
  const usedMemoryAfter = (await usedMemory(r)) - env.base;
  const after = await memoryByFamily(
    r,
    env.prefix,
    nights.map((n) => n.id),
  );
  log(
    `  retention: ${removed}/${nights.length} nights removed in ${(m.wallMs / 1000).toFixed(1)} s (closing them ${(closeMs / 1000).toFixed(1)} s), exit ${m.exitCode}; used_memory after +${(usedMemoryAfter / 2 ** 20).toFixed(2)} MB, ${after.keys} keys left`,
  );
  return { removed, closeMs, passMs: m.wallMs, exitCode: m.exitCode, usedMemoryAfter, after, bytesFreed };
}

// ---------------------------------------------------------------- main

interface ExportRss {
  items: number;
  peakRssMb: number | null;
  wallMs: number;
  exitCode: number;
}

interface SizeResult {
  items: number;
  nights: number;
  built: string;
  buildItemsPerS: number;
  usedMemoryDelta: number;
  bytesPerItem: number;
  memoryUsage: Families;
  retention: RetentionResult | null;
  latency: Latency[];
  serverPeakRssMb: number | null;
}

async function main(): Promise<void> {
  const started = new Date();
  const argv = process.argv.slice(2);
  const args = readArgs(argv);
  const log = (s: string) => process.stdout.write(`${s}\n`);
  const machine = machineInfo();
  log(`scale bench: ${machineLine(machine)}`);
  log('the box is shared with other helpers: figures are under that load (see loadavg per step)');
  const gnu = findGnuTime();
  const own = args.redisUrl ? null : await startPrivateRedis();
  const redisUrl = args.redisUrl ?? own!.url;
  log(`redis: ${redisUrl}${own ? ' (private redis-server)' : ''}`);
  const feeds = scratchDir('scale-feeds');
  const results: {
    e2e: E2eRun[];
    e2eMemory: Families | null;
    sizes: SizeResult[];
    exportRss: ExportRss | null;
    catalogExportRss: ExportRss | null;
  } = {
    e2e: [],
    e2eMemory: null,
    sizes: [],
    exportRss: null,
    catalogExportRss: null,
  };
  let sample: CatalogRecord[] = [];
  const catalogPrefix = `pwscale-cat-${process.pid}`;
  try {
    // ---- end to end
    log(
      `\nend to end: caption-only NDJSON, photowire worker x ${args.workers.join('/')}, photowire ingest --wait (load ${fixed(os.loadavg()[0], 1)})`,
    );
    for (const items of args.e2e) {
      const feed = manifest(feeds, items, 11);
      for (const w of args.workers) {
        const last = items === Math.max(...args.e2e) && w === args.workers[args.workers.length - 1];
        const first = items === args.e2e[0] && w === args.workers[0];
        const opts = { concurrency: args.concurrency, chunkSize: args.chunkSize };
        if (args.baseline) {
          const base = await e2eRun(redisUrl, feed, items, w, false, log, {
            ...opts,
            concurrency: args.baselineConcurrency ?? args.concurrency,
            build: { label: path.basename(args.baseline), bin: path.join(args.baseline, 'bin', 'photowire.js') },
          });
          results.e2e.push(base.run);
        }
        const res = await e2eRun(redisUrl, feed, items, w, last || first, log, {
          ...opts,
          build: { label: 'this', bin: BIN() },
        });
        results.e2e.push(res.run);
        if (first && res.batchId) {
          const r = new Redis(redisUrl);
          const store = new CatalogStore(r, res.prefix);
          const raws = await store.rawRecords(
            res.batchId,
            Array.from({ length: items }, (_, i) => i),
          );
          sample = raws
            .filter((x): x is string => x !== null)
            .map((x) => JSON.parse(x) as CatalogRecord)
            .filter((x) => !x.error);
          await r.quit();
          log(`  ${sample.length} records of the real run kept as the catalog's sample`);
        }
        if (last && res.batchId) {
          const r = new Redis(redisUrl);
          results.e2eMemory = await memoryByFamily(r, res.prefix, [res.batchId]);
          await r.quit();
          const m = await runMeasured(process.execPath, [...binArgv(BIN()).slice(1), 'export', res.batchId], {
            env: baseEnv(redisUrl, res.prefix, res.dataDir),
            gnuTime: gnu.found ? gnu.path : null,
            maxOutputBytes: 1024,
          });
          results.exportRss = { items, peakRssMb: m.peakRssMb, wallMs: m.wallMs, exitCode: m.exitCode };
          log(
            `  export of the ${items}-item batch: peak RSS ${fixed(m.peakRssMb, 0)} MB, ${(m.wallMs / 1000).toFixed(1)} s, exit ${m.exitCode}`,
          );
        }
        if (last || first) {
          await cleanup(redisUrl, res.prefix);
          removeDir(res.dataDir);
        }
      }
    }
    if (args.catalog && !sample.length)
      throw new Error('no records from the first end-to-end run to build the catalog from');

    // ---- catalog sizes
    const r = new Redis(redisUrl);
    if (!args.catalog) args.items = [];
    const store = new CatalogStore(r, catalogPrefix);
    const base = await usedMemory(r);
    let nights: Array<{ id: string; items: number }> = [];
    for (const size of args.items) {
      const perNight = Math.min(NIGHT, Math.ceil(size / args.nights));
      const want = Math.ceil(size / perNight);
      // Nights of another size are dropped (10 x 1k -> 10 x 100k); at 100k a night, more sizes add nights.
      if (nights.length && nights[0].items !== perNight) {
        await deletePrefixKeys(r, catalogPrefix);
        nights = [];
      }
      let buildMs = 0;
      let built = 0;
      while (nights.length < want) {
        const id = `night-${String(nights.length + 1).padStart(3, '0')}`;
        buildMs += await writeNight(store, sample, id, perNight);
        built += perNight;
        nights.push({ id, items: perNight });
        log(`  catalog: ${id} written (${perNight} items), ${nights.length}/${want}`);
      }
      const used = (await usedMemory(r)) - base;
      const fam = await memoryByFamily(
        r,
        catalogPrefix,
        nights.map((n) => n.id),
      );
      const total = nights.reduce((a, n) => a + n.items, 0);
      // ---- HTTP
      const port = await freePort();
      // The serve's data folder, where the retention pass finds the nights' exports.
      const dataDir = scratchDir('scale-serve');
      const server = await startLong(
        ['serve', '--port', String(port)],
        { ...baseEnv(redisUrl, catalogPrefix, dataDir), LOG_LEVEL: 'info' },
        'desk ready',
      );
      let latency: Latency[] = [];
      let serverRss: number | null = null;
      try {
        const big = nights[nights.length - 1];
        const mid = Math.floor(big.items / 2);
        const clusterId = cloneInto(sample, big.id, mid).cluster?.id ?? sample.find((s) => s.cluster)!.cluster!.id;
        latency = await measureHttp(
          `http://127.0.0.1:${port}`,
          [
            { name: 'batch list', url: '/api/batches' },
            { name: `records page (100 @ ${mid})`, url: `/api/batches/${big.id}/records?offset=${mid}&limit=100` },
            {
              name: 'filtered page agency:AFP',
              url: `/api/batches/${big.id}/records?agency=AFP&offset=${Math.floor(mid / 10)}&limit=100`,
            },
            // The batch's cluster page (its per-batch cluster index): records written through the store have no caption-index entry for /api/clusters/:id.
            { name: 'cluster page', url: `/api/batches/${big.id}/records?cluster=${clusterId}&limit=100` },
            { name: 'summary', url: `/api/batches/${big.id}` },
          ],
          args.requests,
        );
        serverRss = hwmMb(server.pid);
      } finally {
        await stop(server);
      }
      // Export RSS of the largest night (a 100k-item batch at the default sizes), once per night size.
      const bigNight = nights[nights.length - 1];
      if (!results.catalogExportRss || results.catalogExportRss.items < bigNight.items) {
        const dir = scratchDir('scale-export');
        try {
          const m = await runMeasured(process.execPath, [...binArgv(BIN()).slice(1), 'export', bigNight.id], {
            env: baseEnv(redisUrl, catalogPrefix, dir),
            gnuTime: gnu.found ? gnu.path : null,
            maxOutputBytes: 1024,
          });
          results.catalogExportRss = {
            items: bigNight.items,
            peakRssMb: m.peakRssMb,
            wallMs: m.wallMs,
            exitCode: m.exitCode,
          };
          log(
            `  export of ${bigNight.id} (${bigNight.items} items, written through the store): peak RSS ${fixed(m.peakRssMb, 0)} MB, ${(m.wallMs / 1000).toFixed(1)} s, exit ${m.exitCode}${m.exitCode ? `: ${m.stderr.trim().slice(-300)}` : ''}`,
          );
        } finally {
          removeDir(dir);
        }
      }
      const nightCount = nights.length;
      let retention: RetentionResult | null = null;
      if (args.retention) {
        try {
          retention = await retentionPass(
            r,
            store,
            nights,
            { redisUrl, prefix: catalogPrefix, dataDir, base, gnuTime: gnu.found ? gnu.path : null },
            log,
          );
        } finally {
          // Whatever the pass left (an archived-index row per night) goes: the next size starts empty.
          await deletePrefixKeys(r, catalogPrefix);
          nights = [];
        }
      }
      removeDir(dataDir);
      const sr: SizeResult = {
        items: total,
        nights: nightCount,
        built: `${nightCount} night(s) of ${perNight}, records through CatalogStore.markItem (cloned from the e2e run)`,
        buildItemsPerS: built ? built / (buildMs / 1000) : NaN,
        usedMemoryDelta: used,
        bytesPerItem: used / total,
        memoryUsage: fam,
        retention,
        latency,
        serverPeakRssMb: serverRss,
      };
      results.sizes.push(sr);
      log(
        `  ${total} items: used_memory +${(used / 2 ** 20).toFixed(1)} MB (${sr.bytesPerItem.toFixed(0)} B/item), MEMORY USAGE ${(fam.bytes / 2 ** 20).toFixed(1)} MB in ${fam.keys} keys; server RSS ${serverRss} MB (load ${fixed(os.loadavg()[0], 1)})`,
      );
      for (const l of latency) log(`    ${l.name.padEnd(28)} p50 ${l.p50Ms} ms  p99 ${l.p99Ms} ms  (HTTP ${l.status})`);
    }
    await r.quit();
  } finally {
    await cleanup(redisUrl, catalogPrefix).catch(() => undefined);
    removeDir(feeds);
    if (own) await own.stop();
  }

  // ---- the table
  log('\nend to end (photowire worker processes + photowire ingest --wait, caption-only):');
  log(
    formatTable(
      [
        'build',
        'items',
        'workers',
        'items/s',
        'wall s',
        'worker CPU ms/item',
        'Redis CPU ms/item',
        'finalize s',
        'ingest CPU ms/item',
        'worker peak RSS MB',
        'load',
        'failed',
      ],
      results.e2e.map((e) => [
        `${e.build}${e.concurrency ? ` c${e.concurrency}` : ''}`,
        e.items,
        e.workers,
        fixed(e.itemsPerS, 0),
        fixed(e.wallMs / 1000, 1),
        fixed(e.workerCpuMsPerItem, 2),
        fixed(e.redisCpuMsPerItem, 3),
        fixed(e.finalizeS, 1),
        fixed(e.ingestCpuMsPerItem, 2),
        e.workerPeakRssMb.map((x) => x.toFixed(0)).join('/'),
        fixed(e.loadAvg[0], 1),
        e.error ? e.error.slice(0, 60) : e.failed,
      ]),
    ),
  );
  const s0 = results.sizes[0];
  log('\ncatalog (records written through the store; latency over HTTP against photowire serve):');
  log(
    formatTable(
      [
        'items',
        'nights',
        'B/item',
        'MB used',
        'list p50/p99',
        'page p50/p99',
        'AFP p50/p99',
        'cluster p50/p99',
        'summary p50/p99',
        'server RSS MB',
      ],
      results.sizes.map((s) => [
        s.items,
        s.nights,
        fixed(s.bytesPerItem, 0),
        fixed(s.usedMemoryDelta / 2 ** 20, 1),
        ...s.latency.map((l) => `${l.p50Ms.toFixed(1)}/${l.p99Ms.toFixed(1)}`),
        s.serverPeakRssMb,
      ]),
    ),
  );
  const top = results.sizes[results.sizes.length - 1];
  if (top && s0 && top !== s0) {
    log(
      `\np99 at ${top.items} vs ${s0.items} (target within 1.5x): ${top.latency.map((l, i) => `${l.name} ${(l.p99Ms / s0.latency[i].p99Ms).toFixed(2)}x`).join(', ')}`,
    );
  }
  if (top) {
    log(`\nMEMORY USAGE by key family at ${top.items} items (top 12):`);
    log(
      formatTable(
        ['family', 'keys', 'MB', 'B/item'],
        top.memoryUsage.byFamily
          .slice(0, 12)
          .map((f) => [f.family, f.keys, fixed(f.bytes / 2 ** 20, 2), fixed(f.bytes / top.items, 1)]),
      ),
    );
  }
  const withRetention = results.sizes.filter((s) => s.retention);
  if (withRetention.length) {
    log(
      `\nretention: every night closed (records.ndjson + summary.json + ledger done), then photowire retention --now <+${RETENTION_DAYS + 1} days>:`,
    );
    log(
      formatTable(
        ['items', 'nights removed', 'close s', 'pass s', 'MB before', 'MB after', 'B/item after', 'keys left', 'exit'],
        withRetention.map((s) => {
          const t = s.retention!;
          return [
            s.items,
            `${t.removed}/${s.nights}`,
            fixed(t.closeMs / 1000, 1),
            fixed(t.passMs / 1000, 1),
            fixed(s.usedMemoryDelta / 2 ** 20, 1),
            fixed(t.usedMemoryAfter / 2 ** 20, 2),
            fixed(t.usedMemoryAfter / s.items, 1),
            t.after.keys,
            t.exitCode,
          ];
        }),
      ),
    );
    const t = withRetention[withRetention.length - 1].retention!;
    if (t.after.byFamily.length)
      log(
        `keys left at ${withRetention[withRetention.length - 1].items} items by family: ${t.after.byFamily
          .slice(0, 8)
          .map((f) => `${f.family} ${f.keys}`)
          .join(', ')}`,
      );
  }
  if (results.e2eMemory) {
    const n = Math.max(...args.e2e);
    log(
      `\nMEMORY USAGE by key family after the end-to-end ${n}-item run (caption index, ledgers and BullMQ included; top 12):`,
    );
    log(
      formatTable(
        ['family', 'keys', 'MB', 'B/item'],
        results.e2eMemory.byFamily
          .slice(0, 12)
          .map((f) => [f.family, f.keys, fixed(f.bytes / 2 ** 20, 2), fixed(f.bytes / n, 1)]),
      ),
    );
  }
  if (results.catalogExportRss)
    log(
      `export of a ${results.catalogExportRss.items}-item night written through the store: peak RSS ${fixed(results.catalogExportRss.peakRssMb, 0)} MB (target < 200 MB)`,
    );
  if (results.exportRss)
    log(
      `\nexport of a ${results.exportRss.items}-item batch: peak RSS ${fixed(results.exportRss.peakRssMb, 0)} MB (target < 200 MB)`,
    );
  const file = writeResults(
    'scale',
    {
      bench: 'scale',
      command: `node dist-bench/bench/run.js scale ${argv.join(' ')}`.trim(),
      startedAt: started.toISOString(),
      args,
      machine,
      loadAverageAtEnd: os.loadavg(),
      ...results,
    },
    started,
  );
  log(`\nresults: ${file}`);
}

main().catch((err) => {
  process.stderr.write(`scale bench: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
