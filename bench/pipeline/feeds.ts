import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IptcFields } from '../../src/schemas/feedItem';
import { generateCaptions } from '../dedup/generateCaptions';
import { ensurePhotos, type PhotoSet } from '../common/inputs';
import { benchCacheDir } from '../common/paths';

/** Wire captions with the near-duplicates a desk sees (the dedup bench's generator), seeded. */
export function wireCaptions(count: number, seed: number): string[] {
  const gen = generateCaptions({ seed, variantsPerFamily: 0.6 });
  return Array.from({ length: count }, () => gen.next().value!.raw);
}

/** A folder of photos with IPTC captions, as an agency drop arrives. */
export async function photoFeed(opts: {
  width: number;
  height: number;
  count: number;
  log: (s: string) => void;
}): Promise<PhotoSet> {
  const captions = wireCaptions(opts.count, 7);
  const iptc = (i: number): IptcFields => ({
    caption: captions[i],
    headline: `Bench photo ${i + 1}`,
    city: 'Harbourton',
    dateCreated: '2026-11-03',
  });
  return ensurePhotos({
    width: opts.width,
    height: opts.height,
    count: opts.count,
    seedBase: 70_000,
    tag: 'pipeline-feed',
    iptc,
    log: opts.log,
  });
}

/** An NDJSON manifest of caption-only items (no images), written once to the bench cache. */
export function captionManifest(count: number): string {
  const dir = path.join(benchCacheDir(), 'v1-caption-manifests');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `captions-${count}.ndjson`);
  if (fs.existsSync(file)) return file;
  const captions = wireCaptions(count, 11);
  const lines = captions.map((caption, i) =>
    JSON.stringify({ id: `bench-${count}-${i + 1}`, caption, headline: `Bench item ${i + 1}` }),
  );
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${lines.join('\n')}\n`);
  fs.renameSync(tmp, file);
  return file;
}
