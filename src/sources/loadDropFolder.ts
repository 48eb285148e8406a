import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadFeed, type LoadedFeed } from '../adapters/feeds/loadFeed';
import { hasImageExtension, sniffImage } from '../core/feeds/sniff';
import { batchIdFor } from '../core/ids';
import { loadFileList } from './loadFileList';
import { listFolder } from './schedule/listFolder';

async function isImageFile(file: string): Promise<boolean> {
  if (hasImageExtension(file)) return true;
  const fh = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await fh.read(head, 0, 16, 0);
    return sniffImage(head.subarray(0, bytesRead)) !== null;
  } finally {
    await fh.close();
  }
}

/**
 * A folder dropped into a hot folder. Photos only: the ordinary folder feed. With a feed inside
 * (a NewsML-G2/NITF/CSV file and its photos, as agencies bundle them): one batch of the feed's
 * items plus any photos no feed names, so no photo is taken twice. The batch id comes from the
 * folder's path and its files' names, sizes and mtimes, like a folder feed's.
 */
export async function loadDropFolder(dir: string, maxFeedBytes: number): Promise<LoadedFeed> {
  const { files } = await listFolder(dir);
  const kinds = await Promise.all(files.map((f) => isImageFile(f.abs)));
  if (kinds.every(Boolean)) return loadFeed(dir, maxFeedBytes);
  const sorted = [...files].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const h = createHash('sha256').update('bundle\n');
  for (const f of sorted) h.update(`${f.rel}\0${f.size}\0${f.mtimeMs}\n`);
  const feed = await loadFileList(dir, sorted.map((f) => f.abs), maxFeedBytes, batchIdFor(dir, h.digest('hex')));
  return { ...feed, format: 'folder-bundle' };
}
