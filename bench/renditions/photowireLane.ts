/**
 * One photowire process doing the rendition stage the way the item worker does it: read the file,
 * hash it, `renderRenditions` with the credit plan, write thumb and preview into the
 * content-addressed data directory through `DataDir.writeAtomic`. `--concurrency` photos in flight.
 *
 *   node dist-bench/bench/renditions/photowireLane.js --out DIR [--concurrency N] [--variant NAME]
 *     [--vips-threads N] FILE...
 *
 * Prints one JSON line on stdout: photos, the time from the first read to the last write, the
 * process's own peak RSS.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { renderRenditions } from '../../src/adapters/images/sharpImages';
import { DataDir } from '../../src/adapters/storage/dataDir';
import { planRenditions } from '../../src/core/images/planRenditions';
import { VARIANTS, renderVariant } from './variants';

const MAX_PIXELS = 100_000_000; // the PHOTOWIRE_MAX_PIXELS default

export interface LaneReport {
  photos: number;
  busyMs: number;
  peakRssMb: number;
  vipsThreads: number;
  variant: string;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      concurrency: { type: 'string', default: '1' },
      variant: { type: 'string', default: 'photowire' },
      'vips-threads': { type: 'string' },
    },
  });
  if (!values.out) throw new Error('--out DIR is required');
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`--concurrency must be a whole number of 1 or more, got ${values.concurrency}`);
  const variant = values.variant!;
  if (variant !== 'photowire' && !VARIANTS[variant])
    throw new Error(`unknown --variant ${variant}: photowire or one of ${Object.keys(VARIANTS).join(', ')}`);
  // sharpImages sets one libvips thread per image on import; the sweep overrides it here.
  if (values['vips-threads']) sharp.concurrency(Number(values['vips-threads']));

  const data = new DataDir(values.out);
  const plan = planRenditions({ creditLine: 'Koen van Weel/EPA', copyright: 'EPA' });
  const files = positionals;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, files.length) }, async () => {
      for (;;) {
        const file = files[next++];
        if (file === undefined) return;
        const bytes = await fs.readFile(file);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const out =
          variant === 'photowire'
            ? await renderRenditions(bytes, file, plan, MAX_PIXELS)
            : await renderVariant(bytes, plan, VARIANTS[variant].opts, MAX_PIXELS);
        const dir = data.renditionDir(sha256);
        for (const r of out.renditions) {
          const spec = plan.renditions.find((s) => s.name === r.name)!;
          await data.writeAtomic(path.join(dir, spec.file), r.data);
        }
      }
    }),
  );
  const report: LaneReport = {
    photos: files.length,
    busyMs: performance.now() - t0,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    vipsThreads: sharp.concurrency(),
    variant,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((err) => {
  process.stderr.write(`photowire lane: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
