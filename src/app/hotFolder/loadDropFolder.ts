import { promises as fs } from 'node:fs';
import { HASH_MAX_BYTES, loadFeed, type LoadedFeed, type LoadOptions } from '../../adapters/feeds/loadFeed';
import { sha256File } from '../../adapters/feeds/hashFile';
import { hasImageExtension, sniffImage } from '../../core/feeds/sniff';
import { batchIdFor, folderDigest } from '../../core/ids';
import { loadFileList } from '../../adapters/feeds/loadFileList';
import { listFolder } from '../schedules/listFolder';

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
 * folder's path and its files' relative paths and bytes (src/core/ids.ts), like a folder feed's.
 * Only regular files decide which it is: symlinks and special files are never opened here (the
 * loaders name or refuse them). Temp-named files (`cp.jpg.part`) are never items: they are named
 * in the warnings (the watcher does not take a folder that holds one; settle.ts).
 */
export async function loadDropFolder(dir: string, maxFeedBytes: number, opts: LoadOptions = {}): Promise<LoadedFeed> {
  const { files, hidden, temps } = await listFolder(dir, opts);
  const regular: typeof files = [];
  for (const f of files) if ((await fs.lstat(f.abs).catch(() => null))?.isFile()) regular.push(f);
  const kinds = await Promise.all(regular.map((f) => isImageFile(f.abs)));
  if (kinds.every(Boolean)) return loadFeed(dir, maxFeedBytes, opts);
  const sorted = [...files].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const entries = [];
  for (const f of sorted) {
    const hashable = regular.includes(f) && f.size <= HASH_MAX_BYTES;
    entries.push({ rel: f.rel, sha256: hashable ? await sha256File(f.abs, opts.signal) : null, size: f.size, mtimeMs: f.mtimeMs });
  }
  const feed = await loadFileList(dir, sorted.map((f) => f.abs), maxFeedBytes, batchIdFor(dir, 'bundle:' + folderDigest(entries)), opts);
  const hiddenWarnings = hidden.map((h) => `${h}: skipped, a hidden file or folder (its name starts with a dot)`);
  const tempWarnings = temps.map((t) => `${t}: skipped, a temporary name (a file still being written is never an item)`);
  return { ...feed, format: 'folder-bundle', warnings: [...feed.warnings, ...hiddenWarnings, ...tempWarnings] };
}
