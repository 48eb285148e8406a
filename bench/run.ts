/**
 * The one entry point for photowire's benchmarks (compiled to dist-bench/ by `tsc -p tsconfig.bench.json`):
 *
 *   node dist-bench/bench/run.js [renditions|pipeline|dedup|metadata|all] [bench options...]
 *
 * No name (or only options, e.g. `npm run bench -- --quick`) runs them all.
 * Each bench runs in its own node process, so one bench's heap and libvips state never colour the
 * next one's figures; options after the name go to that bench (`--quick` goes to every bench with `all`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const BENCHES: Record<string, string> = {
  renditions: 'photowire rendition stage vs vipsthumbnail, ImageMagick and Pillow (one core, all cores)',
  pipeline: '`photowire run` end to end vs the rendition stage alone; caption-only items at 1,000 and 10,000',
  dedup:
    'caption clusters: B-cubed per edit and hard-negative kind, index vs brute force, three orders, then throughput and memory at 1M',
  metadata: 'IPTC/XMP reader vs exifr on every image fixture, ExifTool as reference: speed, fields read, charsets',
  credits:
    'credit rules on 175 real credits from outside the big five agencies: creators/agency accuracy and every miss',
  scale: 'a year of nights in one Redis: memory per item, ingest with 1/2/4 workers, HTTP p50/p99 at 10k..1M, peak RSS',
  delivery:
    'a delivery folder of 500 real dpa item/picture pairs read whole: load time, and the cost of reading every rendition an XML names',
  kills:
    'kill store at 100 vs 20,000 records of one caption and reference: register cost, a kill in slices (slowest Redis command), ingest rate as the cluster grows',
};

function usage(): string {
  return [
    'usage: node dist-bench/bench/run.js [bench|all] [options]   (no bench: all)',
    ...Object.entries(BENCHES).map(([name, about]) => `  ${name.padEnd(11)} ${about}`),
    '  all         every bench above, one after another',
    'options such as --quick are passed to the bench; each bench lists its own at the top of its run.ts',
  ].join('\n');
}

/** Options that only some benches understand are dropped for the others when running `all`. */
const SHARED_FLAGS = new Set(['--quick']);

function runOne(name: string, args: string[]): number {
  // dedup: the caption clusters (dedup/clusters.ts: the subject rule's index, brute force and labelled set).
  const script = path.join(__dirname, name, name === 'dedup' ? 'clusters.js' : 'run.js');
  if (!fs.existsSync(script)) {
    process.stderr.write(`bench ${name}: ${script} is not built; run \`npx tsc -p tsconfig.bench.json\` first\n`);
    return 2;
  }
  // dedup's runner has no --quick: give it its own small settings instead.
  const pass =
    name === 'dedup' && args.includes('--quick') ? [...args.filter((a) => a !== '--quick'), '--n', '30000'] : args;
  process.stdout.write(`\n=== bench ${name} ${pass.join(' ')}\n`);
  const r = spawnSync(process.execPath, [script, ...pass], { stdio: 'inherit' });
  if (r.error) {
    process.stderr.write(`bench ${name}: ${r.error.message}\n`);
    return 1;
  }
  return r.status ?? 1;
}

function main(): number {
  const argv = process.argv.slice(2);
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  const [name, ...rest] = argv[0] === undefined || argv[0].startsWith('-') ? ['all', ...argv] : argv;
  if (name === 'all') {
    const unknown = rest.filter((a) => !SHARED_FLAGS.has(a));
    if (unknown.length) {
      process.stderr.write(
        `with all benches only ${[...SHARED_FLAGS].join(', ')} is passed on; name one bench for ${unknown.join(' ')}\n${usage()}\n`,
      );
      return 2;
    }
    const shared = rest;
    let worst = 0;
    for (const b of Object.keys(BENCHES)) worst = Math.max(worst, runOne(b, shared));
    return worst;
  }
  if (!BENCHES[name]) {
    process.stderr.write(`unknown bench "${name}"\n${usage()}\n`);
    return 2;
  }
  return runOne(name, rest);
}

process.exitCode = main();
