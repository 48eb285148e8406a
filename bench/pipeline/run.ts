/**
 * Pipeline bench: `photowire run` end to end (the built CLI, its own data directory and Redis key
 * prefix) on a folder of 24 MP JPEGs with IPTC captions, against the rendition stage alone on the
 * same files with the same concurrency, side by side in alternating rounds. Then caption-only
 * NDJSON manifests of 1,000 and 10,000 items, to show the per-item cost does not grow with the batch.
 *
 *   npm run bench:pipeline -- [--quick] [--photos N] [--rounds N] [--concurrency N[,N...]]
 *     [--captions 1000,10000] [--redis redis://127.0.0.1:6379] [--no-photos] [--no-captions]
 *     [--storage local,s3] [--memstore-gb N]
 *
 * --storage s3 (or local,s3) runs every photo round twice, on the same photos in the same run: with
 * the local data directory, and with PHOTOWIRE_STORAGE=s3://... on a Ceph RGW that
 * scripts/services/ceph-rgw.sh starts (or the one S3_ENDPOINT + AWS_ACCESS_KEY_ID/SECRET name),
 * a fresh bucket prefix per run, emptied after it; one table shows both and their ratio.
 *
 * Needs `npm run build` (it runs bin/photowire.js; it warns when src/ is newer than dist/) and a Redis: REDIS_URL or --redis, else the
 * CLI's own private redis-server. Writes bench/results/pipeline-<timestamp>.json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config';
import { ping } from '../../src/adapters/redis/ensureRedis';
import { deletePrefixKeys } from '../../src/adapters/redis/scan';
import type { PhotoSet } from '../common/inputs';
import { median, runMeasured, type Measured } from '../common/measure';
import { removeDir, repoRoot, scratchDir } from '../common/paths';
import { fixed, formatTable, machineInfo, machineLine, writeResults } from '../common/report';
import { findGnuTime, missingToolLines, type Tool } from '../common/tools';
import { binArgv } from '../../test/helpers/bin';
import { captionManifest, photoFeed } from './feeds';
import { startS3, type S3Service, type StorageLane } from './s3Lane';
import { STAGES, foldStageLines, type StageBreakdown } from './stages';

interface Args {
  quick: boolean;
  photos: number;
  width: number;
  height: number;
  rounds: number;
  /** Worker concurrency for each photo run; the first is the one the targets are judged at. */
  concurrencies: number[];
  defaultConcurrency: number;
  captions: number[];
  redisUrl: string | null;
  runPhotos: boolean;
  runCaptions: boolean;
  /** Storage lanes of the photo runs; local first (the baseline), then s3 when asked. */
  storage: StorageLane[];
  /** The RGW's in-memory OSD cap, GiB (0: sized from the photo set). */
  memstoreGb: number;
}

function readArgs(argv: string[]): Args {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      photos: { type: 'string' },
      megapixels: { type: 'string' },
      rounds: { type: 'string' },
      concurrency: { type: 'string' },
      captions: { type: 'string' },
      redis: { type: 'string' },
      'no-photos': { type: 'boolean', default: false },
      'no-captions': { type: 'boolean', default: false },
      storage: { type: 'string' },
      'memstore-gb': { type: 'string' },
    },
  });
  const int = (name: string, v: string | undefined, dflt: number) => {
    if (v === undefined) return dflt;
    const x = Number(v);
    if (!Number.isInteger(x) || x < 1) throw new Error(`--${name} must be a whole number of 1 or more, got ${v}`);
    return x;
  };
  const quick = values.quick!;
  const mp = int('megapixels', values.megapixels, 24);
  // 3:2 like a camera frame: 24 MP is 6000x4000.
  const height = Math.round(Math.sqrt((mp * 1e6) / 1.5));
  const defaultConcurrency = loadConfig({}).concurrency;
  return {
    quick,
    photos: int('photos', values.photos, quick ? 20 : 200),
    width: Math.round(height * 1.5),
    height,
    rounds: int('rounds', values.rounds, quick ? 1 : 2),
    concurrencies: values.concurrency
      ? values.concurrency.split(',').map((v) => int('concurrency', v.trim(), 1))
      : [defaultConcurrency],
    defaultConcurrency,
    captions: (values.captions ?? (quick ? '200,2000' : '1000,10000'))
      .split(',')
      .map((v) => int('captions', v.trim(), 1)),
    redisUrl: values.redis ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    runPhotos: !values['no-photos'],
    runCaptions: !values['no-captions'],
    storage: storageLanes(values.storage),
    memstoreGb: int('memstore-gb', values['memstore-gb'], 0) as number,
  };
}

/** `--storage local,s3`: the local lane always runs (it is what s3 is measured against), first. */
function storageLanes(v: string | undefined): StorageLane[] {
  const asked = (v ?? 'local')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  for (const x of asked)
    if (x !== 'local' && x !== 's3') throw new Error(`--storage takes local and/or s3 (comma-separated), got ${x}`);
  return asked.includes('s3') ? ['local', 's3'] : ['local'];
}

const LANE_LABEL: Record<StorageLane, string> = { local: 'local directory', s3: 'S3 (Ceph RGW)' };

/** The latest modification time of any file under dir, to tell a stale build. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const reachable = (url: string) => ping(url, 1500);

/** Remove every key a run left under its private prefix, in both key layouts (`<p>:*`, `{<p>...}`): SCAN + UNLINK, never FLUSH. */
async function deletePrefix(url: string, prefix: string): Promise<number> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    return await deletePrefixKeys(r, prefix);
  } finally {
    await r.quit();
  }
}

/** A feed folder holding exactly these files: hard links into the cache (no copy of gigabytes), a copy where links fail. */
function feedFolder(files: string[]): string {
  const dir = scratchDir('feed');
  for (const f of files) {
    const to = path.join(dir, path.basename(f));
    try {
      fs.linkSync(f, to);
    } catch {
      fs.copyFileSync(f, to);
    }
  }
  return dir;
}

interface CliRun {
  feed: string;
  items: number;
  ok: number;
  failed: number;
  wallMs: number;
  /** From the batch ledger: enqueued to last item done (no process start, no Redis connect, no summary). */
  batchMs: number | null;
  cpuS: number | null;
  peakRssMb: number | null;
  stages: StageBreakdown;
  error: string | null;
  /** s3 lane: CPU seconds the S3 server's daemons used during the run (on the same cores). */
  serverCpuS?: number | null;
}

class Cli {
  private runNo = 0;
  constructor(
    private readonly gnuTime: Tool,
    private readonly redisUrl: string | null,
  ) {}

  async run(feedPath: string, concurrency: number, s3: S3Service | null = null): Promise<CliRun> {
    const prefix = `pwbench-${process.pid}-${Date.now().toString(36)}-${this.runNo++}`;
    const dataDir = scratchDir('data');
    const lines: string[] = [];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PHOTOWIRE_DATA_DIR: dataDir,
      PHOTOWIRE_PREFIX: prefix,
      PHOTOWIRE_CONCURRENCY: String(concurrency),
      // The per-item "item done" lines carry the stage times.
      LOG_LEVEL: 'info',
    };
    if (this.redisUrl) env.REDIS_URL = this.redisUrl;
    else delete env.REDIS_URL;
    for (const k of ['PHOTOWIRE_STORAGE', 'S3_ENDPOINT', 'S3_REGION', 'S3_FORCE_PATH_STYLE']) delete env[k];
    // The s3 lane: the same run with the bucket as storage, under a prefix of its own (emptied after).
    if (s3) Object.assign(env, s3.env, { PHOTOWIRE_STORAGE: `s3://${s3.bucket}/${prefix}` });
    let m: Measured | null = null;
    const server0 = s3?.serverCpuS() ?? null;
    try {
      const [node, ...argv] = binArgv(path.join(repoRoot(), 'bin', 'photowire.js'));
      m = await runMeasured(node, [...argv, 'run', feedPath, '--json'], {
        env,
        gnuTime: this.gnuTime.found ? this.gnuTime.path : null,
        onStderrLine: (l) => {
          if (l.includes('"item done"')) lines.push(l);
        },
        maxOutputBytes: 256 * 1024,
      });
      const out = JSON.parse(m.stdout) as {
        items: number;
        ok: number;
        failed: number;
        batches: Array<{ durationMs: number | null }>;
      };
      return {
        feed: feedPath,
        items: out.items,
        ok: out.ok,
        failed: out.failed,
        wallMs: m.wallMs,
        batchMs: out.batches[0]?.durationMs ?? null,
        cpuS: m.userS === null ? null : m.userS + m.sysS!,
        peakRssMb: m.peakRssMb,
        stages: foldStageLines(lines),
        error: out.failed ? `${out.failed} items failed` : null,
        ...(s3 ? { serverCpuS: server0 === null ? null : (s3.serverCpuS() ?? NaN) - server0 } : {}),
      };
    } catch (err) {
      const why = m
        ? `exit ${m.exitCode}: ${m.stderr.trim().split('\n').slice(-3).join(' | ')}`
        : err instanceof Error
          ? err.message
          : String(err);
      return {
        feed: feedPath,
        items: 0,
        ok: 0,
        failed: 0,
        wallMs: NaN,
        batchMs: null,
        cpuS: null,
        peakRssMb: null,
        stages: foldStageLines([]),
        error: `photowire run failed: ${why}`,
      };
    } finally {
      if (this.redisUrl) await deletePrefix(this.redisUrl, prefix).catch(() => undefined);
      if (s3) await s3.empty(prefix).catch(() => undefined);
      removeDir(dataDir);
    }
  }
}

interface StageOnlyRun {
  wallMs: number;
  busyMs: number | null;
  cpuS: number | null;
  peakRssMb: number | null;
  error: string | null;
}

/** The rendition stage alone (the rendition bench's photowire lane): read, hash, render, write, same concurrency. */
async function renditionStageOnly(files: string[], concurrency: number, gnuTime: Tool): Promise<StageOnlyRun> {
  const out = scratchDir('renditions');
  try {
    const lane = path.join(__dirname, '..', 'renditions', 'photowireLane.js');
    const m = await runMeasured(
      process.execPath,
      [lane, '--out', out, '--concurrency', String(concurrency), ...files],
      { gnuTime: gnuTime.found ? gnuTime.path : null },
    );
    if (m.exitCode !== 0)
      return {
        wallMs: NaN,
        busyMs: null,
        cpuS: null,
        peakRssMb: null,
        error: `rendition stage exited ${m.exitCode}: ${m.stderr.trim().slice(-300)}`,
      };
    const report = JSON.parse(m.stdout.trim().split('\n').pop()!) as { busyMs: number };
    return {
      wallMs: m.wallMs,
      busyMs: report.busyMs,
      cpuS: m.userS === null ? null : m.userS + m.sysS!,
      peakRssMb: m.peakRssMb,
      error: null,
    };
  } finally {
    removeDir(out);
  }
}

const rate = (n: number, ms: number | null) => (ms && Number.isFinite(ms) ? n / (ms / 1000) : NaN);
const med = (xs: Array<number | null>) => {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length ? median(v) : NaN;
};

function stageTable(b: StageBreakdown): string {
  return formatTable(
    ['stage', 'ms/item', 'share'],
    [
      ...STAGES.map((s) => [s, b.meanMs[s].toFixed(1), `${(b.share[s] * 100).toFixed(1)}%`]),
      ['all stages', b.meanItemMs.toFixed(1), '100%'],
    ],
  );
}

/** Mean of several runs' breakdowns, weighting each by its item count. */
function mergeBreakdowns(bs: StageBreakdown[]): StageBreakdown {
  const items = bs.reduce((n, b) => n + b.items, 0);
  const meanMs = Object.fromEntries(
    STAGES.map((s) => [s, items ? bs.reduce((n, b) => n + b.meanMs[s] * b.items, 0) / items : 0]),
  ) as StageBreakdown['meanMs'];
  const total = STAGES.reduce((n, s) => n + meanMs[s], 0);
  const share = Object.fromEntries(STAGES.map((s) => [s, total ? meanMs[s] / total : 0])) as StageBreakdown['share'];
  return { items, meanMs, share, meanItemMs: total };
}

async function photosSection(args: Args, cli: Cli, gnuTime: Tool, log: (s: string) => void) {
  const set: PhotoSet = await photoFeed({ width: args.width, height: args.height, count: args.photos, log });
  for (const f of set.files) fs.readFileSync(f); // page cache warm for both sides
  const feed = feedFolder(set.files);
  let s3: S3Service | null = null;
  try {
    if (args.storage.includes('s3')) {
      // One run's objects at a time (each run's prefix is emptied after it): originals plus renditions, with room.
      const need = set.files.length * set.meanBytes * 1.6 + 512 * 2 ** 20;
      s3 = await startS3({
        memstoreBytes: args.memstoreGb ? args.memstoreGb * 2 ** 30 : Math.max(2 ** 30, Math.ceil(need)),
        log,
      });
    }
    const out = [];
    for (const c of args.concurrencies) out.push(await photosAt(c, args, set, feed, cli, gnuTime, s3, log));
    return { s3: s3 ? { origin: s3.origin, startMs: s3.startMs } : null, results: out };
  } finally {
    await s3?.stop().catch((err) => log(`  (stopping the S3 lane: ${(err as Error).message})`));
    removeDir(feed);
  }
}

interface LaneSummary {
  e2ePhotosPerSecondWall: number;
  e2ePhotosPerSecondBatch: number;
  e2eCpuMsPerPhoto: number;
  e2ePeakRssMb: number | null;
  /** s3 lane: the S3 server's CPU per photo (radosgw + OSD + monitor), on the same cores. */
  serverCpuMsPerPhoto?: number;
}

function laneSummary(runs: CliRun[], n: number): LaneSummary {
  const good = runs.filter((x) => !x.error);
  return {
    e2ePhotosPerSecondWall: med(good.map((x) => rate(n, x.wallMs))),
    e2ePhotosPerSecondBatch: med(good.map((x) => rate(n, x.batchMs))),
    e2eCpuMsPerPhoto: med(good.map((x) => (x.cpuS === null ? null : (x.cpuS * 1000) / n))),
    e2ePeakRssMb: good.length ? Math.max(...good.map((x) => x.peakRssMb ?? 0)) : null,
    ...(good.some((x) => x.serverCpuS !== undefined)
      ? { serverCpuMsPerPhoto: med(good.map((x) => (x.serverCpuS == null ? null : (x.serverCpuS * 1000) / n))) }
      : {}),
  };
}

async function photosAt(
  concurrency: number,
  args: Args,
  set: PhotoSet,
  feed: string,
  cli: Cli,
  gnuTime: Tool,
  s3: S3Service | null,
  log: (s: string) => void,
) {
  const lanes = args.storage;
  const e2eBy = new Map<StorageLane, CliRun[]>(lanes.map((l) => [l, []]));
  const stage: StageOnlyRun[] = [];
  log(
    `\n${set.files.length} photos of ${set.megapixels} MP (${(set.meanBytes / 1e6).toFixed(1)} MB each, IPTC captions), concurrency ${concurrency}${concurrency === args.defaultConcurrency ? ' (the default)' : ''}, ${args.rounds} round(s)${lanes.length > 1 ? `, storage ${lanes.join(' and ')} on the same photos` : ''}:`,
  );
  for (let r = 0; r < args.rounds; r++) {
    // Alternating order, so that neither lane always runs first on a warming (or loading) machine.
    const order: Array<StorageLane | 'stage'> = [...lanes, 'stage'];
    if (r % 2 === 1) order.reverse();
    for (const which of order) {
      if (which !== 'stage') {
        const res = await cli.run(feed, concurrency, which === 's3' ? s3 : null);
        e2eBy.get(which)!.push(res);
        const label = `photowire run (${which})`.padEnd(22);
        log(
          `    round ${r + 1} ${label} ${res.error ? `FAILED: ${res.error}` : `${rate(res.items, res.wallMs).toFixed(2)} photos/s (wall), ${rate(res.items, res.batchMs).toFixed(2)} (batch), RSS ${fixed(res.peakRssMb, 0)} MB`}`,
        );
      } else {
        const res = await renditionStageOnly(set.files, concurrency, gnuTime);
        stage.push(res);
        log(
          `    round ${r + 1} ${'rendition stage'.padEnd(22)} ${res.error ? `FAILED: ${res.error}` : `${rate(set.files.length, res.wallMs).toFixed(2)} photos/s (wall), ${rate(set.files.length, res.busyMs).toFixed(2)} (busy), RSS ${fixed(res.peakRssMb, 0)} MB`}`,
        );
      }
    }
  }
  const n = set.files.length;
  const e2e = e2eBy.get('local')!;
  const good = e2e.filter((x) => !x.error);
  const goodStage = stage.filter((x) => !x.error);
  const summary = {
    photos: n,
    megapixels: set.megapixels,
    concurrency,
    ...laneSummary(e2e, n),
    stagePhotosPerSecondWall: med(goodStage.map((x) => rate(n, x.wallMs))),
    stagePhotosPerSecondBusy: med(goodStage.map((x) => rate(n, x.busyMs))),
    stageCpuMsPerPhoto: med(goodStage.map((x) => (x.cpuS === null ? null : (x.cpuS * 1000) / n))),
    stagePeakRssMb: goodStage.length ? Math.max(...goodStage.map((x) => x.peakRssMb ?? 0)) : null,
    stages: mergeBreakdowns(good.map((x) => x.stages)),
  };
  const ratioWall = summary.e2ePhotosPerSecondWall / summary.stagePhotosPerSecondWall;
  const ratioBatch = summary.e2ePhotosPerSecondBatch / summary.stagePhotosPerSecondBusy;
  // With every core busy, throughput is CPU per photo: this ratio is what the wall ratio tends to on
  // an idle box, and it does not move when other work on a shared box takes cores away mid-run.
  const ratioCpu = summary.stageCpuMsPerPhoto / summary.e2eCpuMsPerPhoto;
  const s3Runs = e2eBy.get('s3');
  const s3Lane = s3Runs
    ? { ...laneSummary(s3Runs, n), stages: mergeBreakdowns(s3Runs.filter((x) => !x.error).map((x) => x.stages)) }
    : null;
  const s3Ratio = s3Lane
    ? {
        wall: s3Lane.e2ePhotosPerSecondWall / summary.e2ePhotosPerSecondWall,
        steady: s3Lane.e2ePhotosPerSecondBatch / summary.e2ePhotosPerSecondBatch,
        cpu: summary.e2eCpuMsPerPhoto / s3Lane.e2eCpuMsPerPhoto,
      }
    : null;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  log(
    formatTable(
      ['', 'photos/s (wall)', 'photos/s (steady)', 'CPU ms/photo', 'peak RSS MB'],
      [
        [
          `photowire run, end to end${s3Lane ? ` (${LANE_LABEL.local})` : ''}`,
          fixed(summary.e2ePhotosPerSecondWall, 2),
          fixed(summary.e2ePhotosPerSecondBatch, 2),
          fixed(summary.e2eCpuMsPerPhoto, 0),
          fixed(summary.e2ePeakRssMb, 0),
        ],
        ...(s3Lane
          ? [
              [
                `photowire run, end to end (${LANE_LABEL.s3})`,
                fixed(s3Lane.e2ePhotosPerSecondWall, 2),
                fixed(s3Lane.e2ePhotosPerSecondBatch, 2),
                fixed(s3Lane.e2eCpuMsPerPhoto, 0),
                fixed(s3Lane.e2ePeakRssMb, 0),
              ],
            ]
          : []),
        [
          'rendition stage alone',
          fixed(summary.stagePhotosPerSecondWall, 2),
          fixed(summary.stagePhotosPerSecondBusy, 2),
          fixed(summary.stageCpuMsPerPhoto, 0),
          fixed(summary.stagePeakRssMb, 0),
        ],
        [`end to end${s3Lane ? ' (local)' : ''} / stage alone`, pct(ratioWall), pct(ratioBatch), pct(ratioCpu), null],
        ...(s3Ratio
          ? [['S3 / local, end to end', pct(s3Ratio.wall), pct(s3Ratio.steady), pct(s3Ratio.cpu), null]]
          : []),
      ],
    ),
  );
  log(
    `  (wall: process start to exit; steady: batch enqueued to last item done, and the stage's first read to last write)`,
  );
  log(
    `  (the CPU column's ratio is stage CPU / end-to-end CPU per photo: the throughput ratio when all cores are busy)`,
  );
  log(
    `  overhead share (everything but the rendition stage): ${((1 - ratioWall) * 100).toFixed(1)}% of wall time, ${((1 - ratioCpu) * 100).toFixed(1)}% of CPU; target <= 15%: ${ratioWall >= 0.85 ? 'met' : 'NOT met'} by wall time, ${ratioCpu >= 0.85 ? 'met' : 'NOT met'} by CPU`,
  );
  if (s3Ratio) {
    log(
      `  S3 throughput / local (target >= 90%): ${pct(s3Ratio.wall)} by wall time (${s3Ratio.wall >= 0.9 ? 'met' : 'NOT met'}), ${pct(s3Ratio.steady)} steady (${s3Ratio.steady >= 0.9 ? 'met' : 'NOT met'}), ${pct(s3Ratio.cpu)} by photowire's CPU per photo`,
    );
    if (s3Lane!.serverCpuMsPerPhoto !== undefined) {
      const all = s3Lane!.e2eCpuMsPerPhoto + s3Lane!.serverCpuMsPerPhoto;
      log(
        `  the S3 server on the same cores: ${fixed(s3Lane!.serverCpuMsPerPhoto, 0)} CPU ms/photo (radosgw + OSD + monitor); photowire + server ${fixed(all, 0)} ms/photo against local's ${fixed(summary.e2eCpuMsPerPhoto, 0)}`,
      );
    }
  }
  log(
    `  worker peak RSS at concurrency ${concurrency}: ${fixed(summary.e2ePeakRssMb, 0)} MB; target < 500 MB: ${summary.e2ePeakRssMb !== null && summary.e2ePeakRssMb < 500 ? 'met' : 'NOT met'}`,
  );
  log(
    `\n  per-item stage times inside the worker (${summary.stages.items} items${s3Lane ? ', local lane' : ''}; concurrent items overlap, so shares are of item time, not of wall time):`,
  );
  log(stageTable(summary.stages).replace(/^/gm, '  '));
  if (s3Lane) {
    log(`\n  the same for the S3 lane (${s3Lane.stages.items} items):`);
    log(stageTable(s3Lane.stages).replace(/^/gm, '  '));
  }
  return {
    summary: { ...summary, ratioWall, ratioSteady: ratioBatch, ratioCpu, s3: s3Lane, s3OverLocal: s3Ratio },
    runs: { e2e, e2eS3: s3Runs ?? null, stage },
  };
}

async function captionsSection(args: Args, cli: Cli, log: (s: string) => void) {
  const concurrency = args.concurrencies[0];
  log(`\nCaption-only items (NDJSON manifest, no images), concurrency ${concurrency}, ${args.rounds} round(s):`);
  const runs = new Map<number, CliRun[]>(args.captions.map((c) => [c, []]));
  for (let r = 0; r < args.rounds; r++) {
    for (const count of r % 2 === 0 ? args.captions : [...args.captions].reverse()) {
      const res = await cli.run(captionManifest(count), concurrency);
      runs.get(count)!.push(res);
      log(
        `    round ${r + 1} ${String(count).padStart(6)} items  ${res.error ? `FAILED: ${res.error}` : `${((res.batchMs ?? NaN) / res.items).toFixed(3)} ms/item (batch), ${rate(res.items, res.wallMs).toFixed(0)} items/s (wall), RSS ${fixed(res.peakRssMb, 0)} MB`}`,
      );
    }
  }
  const rows = args.captions.map((count) => {
    const good = runs.get(count)!.filter((x) => !x.error);
    return {
      items: count,
      msPerItemBatch: med(good.map((x) => (x.batchMs === null ? null : x.batchMs / x.items))),
      itemsPerSecondWall: med(good.map((x) => rate(x.items, x.wallMs))),
      cpuMsPerItem: med(good.map((x) => (x.cpuS === null ? null : (x.cpuS * 1000) / x.items))),
      peakRssMb: good.length ? Math.max(...good.map((x) => x.peakRssMb ?? 0)) : null,
      stages: mergeBreakdowns(good.map((x) => x.stages)),
    };
  });
  log(
    formatTable(
      ['items', 'ms/item (batch)', 'items/s (wall)', 'CPU ms/item', 'dedup ms/item', 'catalog ms/item', 'peak RSS MB'],
      rows.map((r) => [
        r.items,
        fixed(r.msPerItemBatch, 3),
        fixed(r.itemsPerSecondWall, 0),
        fixed(r.cpuMsPerItem, 3),
        r.stages.meanMs.dedup.toFixed(2),
        r.stages.meanMs.catalog.toFixed(2),
        fixed(r.peakRssMb, 0),
      ]),
    ),
  );
  const first = rows[0];
  const last = rows[rows.length - 1];
  const growth = last.msPerItemBatch / first.msPerItemBatch;
  log(
    `  per-item cost at ${last.items} vs ${first.items}: ${(growth * 100).toFixed(1)}% (target <= 110%: ${growth <= 1.1 ? 'met' : 'NOT met'})`,
  );
  return { rows, growth, runs: Object.fromEntries(runs) };
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const args = readArgs(argv);
  const started = new Date();
  const log = (s: string) => console.log(s);
  const built = path.join(repoRoot(), 'dist', 'cli', 'main.js');
  if (!fs.existsSync(built))
    throw new Error('photowire is not built: run `npm run build` first (this bench runs bin/photowire.js)');
  const machine = machineInfo();
  const gnuTime = findGnuTime();
  log(`pipeline bench${args.quick ? ' (quick)' : ''}: ${machineLine(machine)}`);
  if (args.quick)
    log(
      '  --quick is a smoke run: with this few photos and items, process start-up weighs on every figure; do not quote them',
    );
  for (const line of missingToolLines([gnuTime])) log(line);
  const stale = newestSource(path.join(repoRoot(), 'src')) > fs.statSync(built).mtimeMs;
  if (stale)
    log(
      '  WARNING: src/ has changed since dist/ was built: `photowire run` below is the older build (run `npm run build`)',
    );
  let redisUrl: string | null = args.redisUrl;
  if (redisUrl && !(await reachable(redisUrl))) {
    log(
      `  no Redis at ${redisUrl}: each run lets photowire start its own private redis-server (needs redis-server on PATH)`,
    );
    redisUrl = null;
  } else {
    log(`  Redis ${redisUrl}, a fresh key prefix per run (deleted after)`);
  }
  const cli = new Cli(gnuTime, redisUrl);
  const photos = args.runPhotos ? await photosSection(args, cli, gnuTime, log) : null;
  const captions = args.runCaptions ? await captionsSection(args, cli, log) : null;
  const file = writeResults(
    'pipeline',
    {
      bench: 'pipeline',
      command: `node dist-bench/bench/run.js pipeline ${argv.join(' ')}`.trim(),
      startedAt: started.toISOString(),
      args,
      machine,
      photos,
      captions,
    },
    started,
  );
  log(`\nwrote ${file}`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
