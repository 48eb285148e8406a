/**
 * Rendition bench: photowire's rendition stage against vipsthumbnail, ImageMagick and Pillow, all
 * making the same two renditions (thumb fit in 400 WebP q75, preview fit in 1600 JPEG q82) from the
 * same generated 6 MP and 24 MP photographic JPEGs, on one core and on all cores, side by side in
 * interleaved rounds. Then what each of photowire's choices is worth (tuning) and how many photos
 * in flight and libvips threads to use (sweep).
 *
 *   npm run bench:renditions -- [--quick] [--rounds N] [--photos-6mp N] [--photos-24mp N]
 *     [--cores N] [--only photowire,pillow,...] [--no-tuning] [--no-sweep] [--im-hint box|double|both]
 *     [--sizes 6,24]
 *
 * --im-hint double gives ImageMagick twice the preview box as its jpeg:size hint, as its docs
 * suggest; beware that on photos smaller than the hint libjpeg then decodes *enlarged*.
 *
 * Writes bench/results/renditions-<timestamp>.json.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { RENDITIONS } from '../../src/core/images/planRenditions';
import { ensurePhotos, splitIntoLanes, type PhotoSet } from '../common/inputs';
import { median, runMeasured, type Measured } from '../common/measure';
import { removeDir, scratchDir } from '../common/paths';
import { fixed, formatTable, machineInfo, machineLine, writeResults, type Cell } from '../common/report';
import {
  findGnuTime,
  findImageMagick,
  findPillow,
  findTaskset,
  findVipsthumbnail,
  missingToolLines,
  type Tool,
} from '../common/tools';
import { imagemagick, photowire, pillow, vipsthumbnail, type Competitor } from './competitors';
import { VARIANTS } from './variants';
import { checkOutputs, type OutputCheck } from './verify';

interface Args {
  quick: boolean;
  rounds: number;
  photos6: number;
  photos24: number;
  cores: number;
  only: string[] | null;
  tuning: boolean;
  sweep: boolean;
  imHint: 'box' | 'double' | 'both';
  /** Which of the two photo sizes to run, in megapixels. */
  sizes: Array<6 | 24>;
}

function imHint(v: string): Args['imHint'] {
  if (v === 'box' || v === 'double' || v === 'both') return v;
  throw new Error(`--im-hint must be box, double or both, got ${v}`);
}

function readArgs(argv: string[]): Args {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      'photos-6mp': { type: 'string' },
      'photos-24mp': { type: 'string' },
      cores: { type: 'string' },
      only: { type: 'string' },
      'no-tuning': { type: 'boolean', default: false },
      'no-sweep': { type: 'boolean', default: false },
      'im-hint': { type: 'string', default: 'box' },
      sizes: { type: 'string', default: '6,24' },
    },
  });
  const int = (name: string, v: string | undefined, dflt: number) => {
    if (v === undefined) return dflt;
    const x = Number(v);
    if (!Number.isInteger(x) || x < 1) throw new Error(`--${name} must be a whole number of 1 or more, got ${v}`);
    return x;
  };
  const quick = values.quick!;
  return {
    quick,
    rounds: int('rounds', values.rounds, quick ? 1 : 3),
    photos6: int('photos-6mp', values['photos-6mp'], quick ? 8 : 64),
    photos24: int('photos-24mp', values['photos-24mp'], quick ? 4 : 32),
    cores: int('cores', values.cores, os.cpus().length),
    only: values.only ? values.only.split(',').map((s) => s.trim()) : null,
    tuning: !values['no-tuning'] && !quick,
    sweep: !values['no-sweep'] && !quick,
    imHint: imHint(values['im-hint']!),
    sizes: values.sizes!.split(',').map((v) => {
      if (v.trim() !== '6' && v.trim() !== '24') throw new Error(`--sizes takes 6 and/or 24 (megapixels), got ${v}`);
      return Number(v) as 6 | 24;
    }),
  };
}

interface RunResult {
  competitor: string;
  photos: number;
  wallMs: number;
  photosPerSecond: number;
  /** Without process start-up: from the lane's own clock (first read to last write), for tools that report one. */
  busyPhotosPerSecond: number | null;
  cpuMsPerPhoto: number | null;
  /** Largest peak RSS of any one process. */
  peakRssMb: number | null;
  /** Sum over parallel processes of each one's peak: an upper bound on what they held together. */
  summedPeakRssMb: number | null;
  processes: number;
  check: OutputCheck | null;
  error: string | null;
}

interface Mode {
  name: 'one core' | 'all cores';
  cpus: number[] | undefined;
  inFlight: number;
}

/** The `{"photos":n,"busyMs":t}` line photowire's and Pillow's lanes print. */
function laneClock(m: Measured): { photos: number; busyMs: number } | null {
  const line = m.stdout.trim().split('\n').pop() ?? '';
  try {
    const j = JSON.parse(line) as { photos?: unknown; busyMs?: unknown };
    return typeof j.photos === 'number' && typeof j.busyMs === 'number' && j.busyMs > 0
      ? { photos: j.photos, busyMs: j.busyMs }
      : null;
  } catch {
    return null;
  }
}

class Runner {
  constructor(
    private readonly gnuTime: Tool,
    private readonly taskset: Tool,
  ) {}

  /** One competitor over all photos in one mode: lanes start together, the wall clock stops when the last ends. */
  async run(c: Competitor, set: PhotoSet, mode: Mode, env: Record<string, string> = {}): Promise<RunResult> {
    const out = scratchDir(c.id);
    const lanes =
      mode.name === 'all cores' && c.parallel === 'processes' ? splitIntoLanes(set.files, mode.inFlight) : [set.files];
    const base: RunResult = {
      competitor: c.id,
      photos: set.files.length,
      wallMs: NaN,
      photosPerSecond: NaN,
      busyPhotosPerSecond: null,
      cpuMsPerPhoto: null,
      peakRssMb: null,
      summedPeakRssMb: null,
      processes: 0,
      check: null,
      error: null,
    };
    try {
      const t0 = performance.now();
      const perLane = await Promise.all(
        lanes.map(async (files) => {
          const steps: Measured[] = [];
          for (const step of c.lane(files, out, mode.inFlight)) {
            const m = await runMeasured(step.cmd, step.args, {
              env: { ...process.env, ...step.env, ...env },
              cpus: mode.cpus,
              gnuTime: this.gnuTime.found ? this.gnuTime.path : null,
              taskset: this.taskset.path,
            });
            if (m.exitCode !== 0)
              throw new Error(
                `${c.label} exited with ${m.exitCode}: ${m.stderr.trim().split('\n').slice(-3).join(' | ')}`,
              );
            steps.push(m);
          }
          return steps;
        }),
      );
      const wallMs = performance.now() - t0;
      const all = perLane.flat();
      const cpu = all.every((m) => m.userS !== null) ? all.reduce((s, m) => s + m.userS! + m.sysS!, 0) : null;
      const rss = all.map((m) => m.peakRssMb).filter((x): x is number => x !== null);
      const busy = all.map(laneClock);
      const busyRate = busy.every((b) => b !== null)
        ? busy.reduce((s, b) => s + b!.photos / (b!.busyMs / 1000), 0)
        : null;
      const boxes = {
        thumb: RENDITIONS.find((r) => r.name === 'thumb')!.box,
        preview: RENDITIONS.find((r) => r.name === 'preview')!.box,
      };
      const check: OutputCheck =
        c.writesRenditions === false
          ? { ok: true, problems: [], thumbs: 0, previews: 0, meanThumbBytes: 0, meanPreviewBytes: 0 }
          : await checkOutputs(out, set.files.length, set, boxes);
      return {
        ...base,
        wallMs,
        photosPerSecond: check.ok ? set.files.length / (wallMs / 1000) : NaN,
        busyPhotosPerSecond: check.ok ? busyRate : null,
        cpuMsPerPhoto: cpu === null ? null : (cpu * 1000) / set.files.length,
        peakRssMb: rss.length ? Math.max(...rss) : null,
        summedPeakRssMb: rss.length
          ? perLane.reduce((s, steps) => s + Math.max(0, ...steps.map((m) => m.peakRssMb ?? 0)), 0)
          : null,
        processes: all.length,
        check,
        error: check.ok ? null : `wrong output: ${check.problems.join('; ')}`,
      };
    } catch (err) {
      return { ...base, error: err instanceof Error ? err.message : String(err) };
    } finally {
      removeDir(out);
    }
  }
}

interface Summary {
  competitor: string;
  label: string;
  photosPerSecond: number;
  busyPhotosPerSecond: number | null;
  rounds: number[];
  cpuMsPerPhoto: number | null;
  peakRssMb: number | null;
  summedPeakRssMb: number | null;
  meanThumbBytes: number | null;
  meanPreviewBytes: number | null;
  error: string | null;
}

function summarize(c: Competitor, runs: RunResult[]): Summary {
  const good = runs.filter((r) => !r.error);
  const med = (f: (r: RunResult) => number | null) => {
    const xs = good.map(f).filter((x): x is number => x !== null && Number.isFinite(x));
    return xs.length ? median(xs) : null;
  };
  return {
    competitor: c.id,
    label: c.label,
    photosPerSecond: good.length ? median(good.map((r) => r.photosPerSecond)) : NaN,
    busyPhotosPerSecond: med((r) => r.busyPhotosPerSecond),
    rounds: runs.map((r) => +r.photosPerSecond.toFixed(3)),
    cpuMsPerPhoto: med((r) => r.cpuMsPerPhoto),
    peakRssMb: good.length ? Math.max(...good.map((r) => r.peakRssMb ?? 0)) : null,
    summedPeakRssMb: good.length ? Math.max(...good.map((r) => r.summedPeakRssMb ?? 0)) : null,
    meanThumbBytes: med((r) => r.check?.meanThumbBytes ?? null),
    meanPreviewBytes: med((r) => r.check?.meanPreviewBytes ?? null),
    error: runs.find((r) => r.error)?.error ?? null,
  };
}

/** Run every competitor once per round, rotating who goes first, so drift on a shared box hits all alike. */
async function sideBySide(
  runner: Runner,
  competitors: Competitor[],
  set: PhotoSet,
  mode: Mode,
  rounds: number,
  log: (s: string) => void,
) {
  const runs = new Map<string, RunResult[]>(competitors.map((c) => [c.id, []]));
  for (let r = 0; r < rounds; r++) {
    const order = competitors.map((_c, i) => competitors[(i + r) % competitors.length]);
    for (const c of order) {
      const res = await runner.run(c, set, mode);
      runs.get(c.id)!.push(res);
      log(
        `    round ${r + 1}/${rounds} ${c.id.padEnd(24)} ${res.error ? `FAILED: ${res.error}` : `${res.photosPerSecond.toFixed(2)} photos/s`}`,
      );
    }
  }
  return { runs: Object.fromEntries(runs), summaries: competitors.map((c) => summarize(c, runs.get(c.id)!)) };
}

function comparisonTable(summaries: Summary[]): string {
  const pw = summaries.find((s) => s.competitor === 'photowire')!;
  return formatTable(
    [
      'tool',
      'photos/s',
      'photowire is',
      'busy photos/s',
      'CPU ms/photo',
      'peak RSS MB',
      'sum RSS MB',
      'thumb KB',
      'preview KB',
    ],
    summaries.map((s): Cell[] => [
      s.label,
      s.error && !Number.isFinite(s.photosPerSecond) ? `failed` : fixed(s.photosPerSecond, 2),
      s.competitor === 'photowire'
        ? ''
        : Number.isFinite(s.photosPerSecond)
          ? `${(pw.photosPerSecond / s.photosPerSecond).toFixed(2)}x`
          : null,
      fixed(s.busyPhotosPerSecond, 2),
      fixed(s.cpuMsPerPhoto, 0),
      fixed(s.peakRssMb, 0),
      fixed(s.summedPeakRssMb, 0),
      s.meanThumbBytes === null ? null : (s.meanThumbBytes / 1024).toFixed(1),
      s.meanPreviewBytes === null ? null : (s.meanPreviewBytes / 1024).toFixed(0),
    ]),
  );
}

const TARGETS: Record<string, number> = { vipsthumbnail: 1.0, pillow: 1.3, imagemagick: 5 };

/** Each target against the tool's best way of doing it (for vipsthumbnail, the faster of its two ways). */
function targetLines(
  summaries: Summary[],
): Array<{ tool: string; ratio: number | null; target: number; met: boolean | null }> {
  const pw = summaries.find((s) => s.competitor === 'photowire')!;
  return Object.entries(TARGETS).map(([tool, target]) => {
    const rates = summaries
      .filter((s) => s.competitor.startsWith(tool) && Number.isFinite(s.photosPerSecond))
      .map((s) => s.photosPerSecond);
    if (!rates.length || !Number.isFinite(pw.photosPerSecond)) return { tool, ratio: null, target, met: null };
    const ratio = pw.photosPerSecond / Math.max(...rates);
    return { tool, ratio: +ratio.toFixed(2), target, met: ratio >= target };
  });
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const args = readArgs(argv);
  const started = new Date();
  const log = (s: string) => console.log(s);
  const machine = machineInfo();
  const tools = {
    vipsthumbnail: findVipsthumbnail(),
    imagemagick: findImageMagick(),
    pillow: findPillow(),
    time: findGnuTime(),
    taskset: findTaskset(),
  };
  log(`rendition bench${args.quick ? ' (quick)' : ''}: ${machineLine(machine)}`);
  if (args.quick)
    log(
      '  --quick is a smoke run: with this few photos and items, process start-up weighs on every figure; do not quote them',
    );
  for (const t of Object.values(tools)) if (t.found && t.version) log(`  ${t.name}: ${t.version} (${t.path})`);
  for (const line of missingToolLines(Object.values(tools))) log(line);
  if (!tools.taskset.found) throw new Error('taskset is needed to pin the one-core runs (Debian package util-linux)');

  const all: Competitor[] = [
    photowire(process.execPath),
    vipsthumbnail(tools.vipsthumbnail, true),
    vipsthumbnail(tools.vipsthumbnail, false),
    pillow(tools.pillow),
    ...(args.imHint === 'both' ? (['box', 'double'] as const) : [args.imHint]).map((h) =>
      imagemagick(tools.imagemagick, h),
    ),
  ];
  const competitors = all.filter(
    (c) => c.available && (!args.only || c.id === 'photowire' || args.only.includes(c.id)),
  );
  const runner = new Runner(tools.time, tools.taskset);
  const modes: Mode[] = [
    { name: 'one core', cpus: [0], inFlight: 1 },
    { name: 'all cores', cpus: undefined, inFlight: args.cores },
  ];

  const sets: PhotoSet[] = [];
  if (args.sizes.includes(6))
    sets.push(
      await ensurePhotos({ width: 3000, height: 2000, count: args.photos6, seedBase: 6000, tag: 'renditions', log }),
    );
  if (args.sizes.includes(24))
    sets.push(
      await ensurePhotos({ width: 6000, height: 4000, count: args.photos24, seedBase: 24000, tag: 'renditions', log }),
    );
  // Every tool then reads from the page cache, not the first one from disk.
  for (const s of sets) for (const f of s.files) fs.readFileSync(f);

  const comparisons: unknown[] = [];
  for (const set of sets) {
    for (const mode of modes) {
      log(
        `\n${set.megapixels} MP (${set.width}x${set.height}, ${(set.meanBytes / 1e6).toFixed(1)} MB each), ${set.files.length} photos, ${mode.name}${mode.name === 'all cores' ? ` (${mode.inFlight})` : ' (taskset -c 0)'}:`,
      );
      const { runs, summaries } = await sideBySide(runner, competitors, set, mode, args.rounds, log);
      log(comparisonTable(summaries));
      const targets = targetLines(summaries);
      log(
        `  targets: ${targets.map((t) => `${t.tool} ${t.ratio === null ? 'n/a' : `${t.ratio}x`} (want >= ${t.target}x${t.met === null ? '' : t.met ? ', met' : ', NOT met'})`).join('; ')}`,
      );
      comparisons.push({
        megapixels: set.megapixels,
        width: set.width,
        height: set.height,
        meanInputBytes: Math.round(set.meanBytes),
        photos: set.files.length,
        mode: mode.name,
        inFlight: mode.inFlight,
        summaries,
        targets,
        runs,
      });
    }
  }

  const big = sets[sets.length - 1];
  let tuning: unknown = null;
  if (args.tuning) {
    log(
      `\nTuning: what each choice is worth (${big.megapixels} MP, one core, ${big.files.length} photos, ${args.rounds} rounds):`,
    );
    const variants = [
      photowire(process.execPath, [], 'photowire', 'photowire as shipped'),
      ...Object.entries(VARIANTS).map(([name, v]) =>
        photowire(process.execPath, ['--variant', name], name, v.about, !v.opts.decodeOnly),
      ),
    ];
    const { runs, summaries } = await sideBySide(runner, variants, big, modes[0], args.rounds, log);
    const shipped = summaries[0].photosPerSecond;
    log(
      formatTable(
        ['variant', 'photos/s', 'vs shipped', 'CPU ms/photo', 'peak RSS MB', 'preview KB'],
        summaries.map((s) => [
          s.label,
          fixed(s.photosPerSecond, 2),
          `${((s.photosPerSecond / shipped - 1) * 100).toFixed(0)}%`,
          fixed(s.cpuMsPerPhoto, 0),
          fixed(s.peakRssMb, 0),
          s.meanPreviewBytes === null ? null : (s.meanPreviewBytes / 1024).toFixed(0),
        ]),
      ),
    );
    tuning = { megapixels: big.megapixels, photos: big.files.length, mode: 'one core', summaries, runs };
  }

  let sweep: unknown = null;
  if (args.sweep) {
    log(
      `\nSweep: photos in flight x libvips threads x libuv pool (${big.megapixels} MP, all ${args.cores} cores, ${args.rounds} rounds):`,
    );
    // `processes` > 1: that many photowire processes, each with `inFlight` photos (the CLI tools' way).
    const settings: Array<{ processes: number; inFlight: number; vipsThreads: number; uvThreads: number }> = [];
    for (const inFlight of [1, 2, 3, 4]) settings.push({ processes: 1, inFlight, vipsThreads: 1, uvThreads: 4 });
    settings.push(
      { processes: 1, inFlight: 1, vipsThreads: 2, uvThreads: 4 },
      { processes: 1, inFlight: 2, vipsThreads: 2, uvThreads: 4 },
      { processes: 1, inFlight: 2, vipsThreads: 1, uvThreads: 2 },
      { processes: args.cores, inFlight: 1, vipsThreads: 1, uvThreads: 4 },
    );
    const rows: Array<{ setting: (typeof settings)[number]; summary: Summary; runs: RunResult[] }> = [];
    const perSetting = new Map<string, RunResult[]>();
    const key = (s: (typeof settings)[number]) =>
      `${s.processes > 1 ? `${s.processes} processes x ` : ''}${s.inFlight} in flight, ${s.vipsThreads} vips thread(s), UV_THREADPOOL_SIZE=${s.uvThreads}`;
    for (let r = 0; r < args.rounds; r++) {
      for (let i = 0; i < settings.length; i++) {
        const s = settings[(i + r) % settings.length];
        const one = photowire(process.execPath, ['--vips-threads', String(s.vipsThreads)], 'photowire', key(s));
        const c: Competitor =
          s.processes > 1
            ? { ...one, parallel: 'processes', lane: (files, out) => one.lane(files, out, s.inFlight) }
            : one;
        const mode: Mode = { name: 'all cores', cpus: undefined, inFlight: s.processes > 1 ? s.processes : s.inFlight };
        const res = await runner.run(c, big, mode, { UV_THREADPOOL_SIZE: String(s.uvThreads) });
        if (!perSetting.has(key(s))) perSetting.set(key(s), []);
        perSetting.get(key(s))!.push(res);
        log(
          `    round ${r + 1}/${args.rounds} ${key(s).padEnd(56)} ${res.error ? `FAILED: ${res.error}` : `${res.photosPerSecond.toFixed(2)} photos/s`}`,
        );
      }
    }
    for (const s of settings) {
      const runs = perSetting.get(key(s))!;
      rows.push({ setting: s, summary: summarize(photowire(process.execPath, [], 'photowire', key(s)), runs), runs });
    }
    log(
      formatTable(
        [
          'processes',
          'photos in flight each',
          'vips threads',
          'UV_THREADPOOL_SIZE',
          'photos/s',
          'CPU ms/photo',
          'peak RSS MB (sum)',
        ],
        rows.map((r) => [
          r.setting.processes,
          r.setting.inFlight,
          r.setting.vipsThreads,
          r.setting.uvThreads,
          fixed(r.summary.photosPerSecond, 2),
          fixed(r.summary.cpuMsPerPhoto, 0),
          r.setting.processes > 1
            ? `${fixed(r.summary.peakRssMb, 0)} (${fixed(r.summary.summedPeakRssMb, 0)})`
            : fixed(r.summary.peakRssMb, 0),
        ]),
      ),
    );
    sweep = { megapixels: big.megapixels, photos: big.files.length, rows };
  }

  const file = writeResults(
    'renditions',
    {
      bench: 'renditions',
      command: `node dist-bench/bench/run.js renditions ${argv.join(' ')}`.trim(),
      startedAt: started.toISOString(),
      args,
      machine,
      tools,
      renditions: RENDITIONS,
      comparisons,
      tuning,
      sweep,
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
