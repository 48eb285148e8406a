import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import type { IptcFields } from '../../src/schemas/feedItem';
import { benchCacheDir } from './paths';

/** Bump when the generator or its settings change, so stale cached inputs are not reused. */
const INPUT_VERSION = 1;
export const PHOTO_QUALITY = 88;

export interface PhotoSet {
  dir: string;
  files: string[];
  width: number;
  height: number;
  megapixels: number;
  meanBytes: number;
}

function writeAtomic(file: string, data: Buffer | string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/**
 * `count` distinct photographic JPEGs (`syntheticPhoto`, seeds seedBase..), generated once and kept
 * in the bench cache: a 24 MP one takes over a second to make. With `iptc`, each gets the IPTC
 * block `iptc(i)` returns, written the way agencies send it (APP13, UTF-8).
 */
export async function ensurePhotos(opts: {
  width: number;
  height: number;
  count: number;
  seedBase: number;
  tag: string;
  iptc?: (i: number) => IptcFields;
  log?: (msg: string) => void;
}): Promise<PhotoSet> {
  const { width, height, count, seedBase } = opts;
  const dir = path.join(
    benchCacheDir(),
    `v${INPUT_VERSION}-${opts.tag}-${width}x${height}-q${PHOTO_QUALITY}-s${seedBase}`,
  );
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  let made = 0;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `photo-${String(i).padStart(5, '0')}.jpg`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    let jpeg = await syntheticPhoto({ width, height, seed: seedBase + i, quality: PHOTO_QUALITY });
    if (opts.iptc) jpeg = insertIptcIntoJpeg(jpeg, buildIimBlock(opts.iptc(i), { utf8: true }));
    writeAtomic(file, jpeg);
    made++;
    if (opts.log && (made === 1 || made % 10 === 0)) {
      const each = (performance.now() - t0) / made;
      opts.log(
        `  generating ${width}x${height} inputs in ${dir}: ${i + 1}/${count} (${(each / 1000).toFixed(1)} s each, cached for next runs)`,
      );
    }
  }
  const meanBytes = files.reduce((n, f) => n + fs.statSync(f).size, 0) / Math.max(1, files.length);
  return { dir, files, width, height, megapixels: +((width * height) / 1e6).toFixed(1), meanBytes };
}

/** Round-robin files into `lanes` lists, so each parallel process gets the same share. */
export function splitIntoLanes<T>(items: readonly T[], lanes: number): T[][] {
  if (!Number.isInteger(lanes) || lanes < 1)
    throw new RangeError(`lanes must be a whole number of 1 or more, got ${lanes}`);
  const out: T[][] = Array.from({ length: lanes }, () => []);
  items.forEach((x, i) => out[i % lanes].push(x));
  return out.filter((l) => l.length > 0);
}
