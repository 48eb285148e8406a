import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { buildIimBlock, insertIptcIntoJpeg } from '../core/metadata';
import { SAMPLE_GALLERY, SAMPLE_MANIFEST, SAMPLE_PHOTOS } from './sampleCaptions';
import { syntheticPhoto } from './syntheticPhoto';

export interface SampleFeed {
  dir: string;
  /** The three feeds of the sample: a folder of JPEGs, an NDJSON manifest and a gallery text. */
  feeds: string[];
}

/**
 * Write the sample drop under `<dataDir>/sample-feed` once. It is reused afterwards, so a second
 * `run --sample` lands on the same batch ids and shows that nothing is taken twice.
 */
export async function generateSampleFeed(dataDir: string): Promise<SampleFeed> {
  const dir = path.join(dataDir, 'sample-feed');
  const photos = path.join(dir, 'photos');
  const feeds = [photos, path.join(dir, 'manifest.ndjson'), path.join(dir, 'gallery.txt')];
  const marker = path.join(dir, '.complete');
  try {
    await fs.access(marker);
    return { dir, feeds };
  } catch {
    /* generate */
  }
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(photos, { recursive: true });
  let seed = 7;
  for (const p of SAMPLE_PHOTOS) {
    const jpeg = await syntheticPhoto({ width: p.width, height: p.height, seed: seed++ });
    const withIptc = insertIptcIntoJpeg(jpeg, buildIimBlock(p.iptc, { utf8: !p.latin1 }));
    await fs.writeFile(path.join(photos, p.file), withIptc);
  }
  await fs.writeFile(feeds[1], SAMPLE_MANIFEST.map((m) => JSON.stringify(m)).join('\n') + '\n');
  await fs.writeFile(feeds[2], SAMPLE_GALLERY);
  await fs.writeFile(marker, new Date().toISOString() + '\n');
  return { dir, feeds };
}
