import * as path from 'node:path';
import { RENDITIONS } from '../../src/core/images/planRenditions';
import { repoRoot } from '../common/paths';
import type { Tool } from '../common/tools';

/** One process to run: a lane is a list of these, run one after another. */
export interface Step {
  cmd: string;
  args: string[];
  env?: Record<string, string>;
}

export interface Competitor {
  id: string;
  label: string;
  /** How it uses all cores: photowire runs one process with N photos in flight (its worker), the CLIs N processes. */
  parallel: 'in-process' | 'processes';
  available: boolean;
  /** false for the decode-only floor, which writes nothing to check. */
  writesRenditions?: boolean;
  lane(files: string[], outDir: string, inFlight: number): Step[];
}

const THUMB = RENDITIONS.find((r) => r.name === 'thumb')!;
const PREVIEW = RENDITIONS.find((r) => r.name === 'preview')!;
const stem = (f: string) => path.basename(f, path.extname(f));

/** One thread per process for the CLI tools: parallelism comes from processes, as for photowire from photos in flight. */
const SINGLE_THREAD = { VIPS_CONCURRENCY: '1', MAGICK_THREAD_LIMIT: '1', OMP_NUM_THREADS: '1' };

export function photowire(
  node: string,
  extraArgs: string[] = [],
  id = 'photowire',
  label = 'photowire',
  writesRenditions = true,
): Competitor {
  const lane = path.join(__dirname, 'photowireLane.js');
  return {
    id,
    label,
    parallel: 'in-process',
    available: true,
    writesRenditions,
    lane: (files, outDir, inFlight) => [
      { cmd: node, args: [lane, '--out', outDir, '--concurrency', String(inFlight), ...extraArgs, ...files] },
    ],
  };
}

/**
 * vipsthumbnail makes one size per run, so two runs per lane. `chained`: the thumbnail is made from
 * the preview file (one full decode per photo, like photowire); otherwise from the original again.
 */
export function vipsthumbnail(tool: Tool, chained: boolean): Competitor {
  return {
    id: chained ? 'vipsthumbnail' : 'vipsthumbnail-separate',
    label: chained ? 'vipsthumbnail (thumb from preview)' : 'vipsthumbnail (two decodes)',
    parallel: 'processes',
    available: tool.found,
    lane: (files, outDir) => {
      const previews = files.map((f) => path.join(outDir, `${stem(f)}.preview.jpg`));
      return [
        {
          cmd: tool.path!,
          args: [
            '--size',
            `${PREVIEW.box}x${PREVIEW.box}>`,
            '-o',
            path.join(outDir, `%s.preview.jpg[Q=${PREVIEW.quality},optimize_coding,strip]`),
            ...files,
          ],
          env: SINGLE_THREAD,
        },
        {
          cmd: tool.path!,
          args: [
            '--size',
            `${THUMB.box}x${THUMB.box}>`,
            '-o',
            path.join(outDir, `%s.thumb.webp[Q=${THUMB.quality},effort=2,strip]`),
            ...(chained ? previews : files),
          ],
          env: SINGLE_THREAD,
        },
      ];
    },
  };
}

/**
 * ImageMagick, one `convert` per photo (it cannot write two sizes of many files in one run), both
 * renditions from one decode via -write. With hint 'box' the jpeg:size hint is the preview box, so
 * libjpeg scales in the DCT to the same size libvips and Pillow decode at (3000x2000 for 24 MP);
 * 'double' is twice the box, as ImageMagick's documentation suggests for quality (a full decode
 * of 24 MP).
 */
export function imagemagick(tool: Tool, hint: 'box' | 'double' = 'box'): Competitor {
  const h = hint === 'box' ? PREVIEW.box : PREVIEW.box * 2;
  return {
    id: hint === 'box' ? 'imagemagick' : 'imagemagick-double-hint',
    label: `ImageMagick convert -thumbnail (jpeg:size=${h}x${h})`,
    parallel: 'processes',
    available: tool.found,
    lane: (files, outDir) =>
      files.map((f) => ({
        cmd: tool.path!,
        args: [
          '-define',
          `jpeg:size=${h}x${h}`,
          f,
          '-auto-orient',
          '-thumbnail',
          `${PREVIEW.box}x${PREVIEW.box}>`,
          '-quality',
          String(PREVIEW.quality),
          '-define',
          'jpeg:optimize-coding=true',
          '-write',
          path.join(outDir, `${stem(f)}.preview.jpg`),
          '-thumbnail',
          `${THUMB.box}x${THUMB.box}>`,
          '-quality',
          String(THUMB.quality),
          '-define',
          'webp:method=2',
          path.join(outDir, `${stem(f)}.thumb.webp`),
        ],
        env: SINGLE_THREAD,
      })),
  };
}

export function pillow(tool: Tool): Competitor {
  const script = path.join(repoRoot(), 'bench', 'renditions', 'pillow_lane.py');
  return {
    id: 'pillow',
    label: 'Pillow with draft()',
    parallel: 'processes',
    available: tool.found,
    lane: (files, outDir) => [{ cmd: tool.path!, args: [script, outDir, ...files], env: SINGLE_THREAD }],
  };
}
