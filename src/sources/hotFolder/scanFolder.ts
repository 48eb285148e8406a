import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isTempNameInsideFolder, markedName, roleOf } from './names';
import type { EntryObservation, ScanListing } from './settle';

/**
 * What is in a folder feed right now: file count, total size, newest mtime (folders included,
 * so a file added or removed shows), and whether an upload is still going on inside it.
 */
async function folderSignature(dir: string): Promise<{ signature: string; incomplete: boolean }> {
  let count = 0;
  let bytes = 0;
  let newest = 0;
  let incomplete = false;
  async function walk(d: string): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch {
      incomplete = true; // being moved or deleted under us: look again next scan
      return;
    }
    for (const e of entries) {
      if (isTempNameInsideFolder(e.name)) incomplete = true;
      const full = path.join(d, e.name);
      let st;
      try {
        st = await fs.stat(full);
      } catch {
        continue;
      }
      newest = Math.max(newest, st.mtimeMs);
      if (st.isDirectory()) await walk(full);
      else {
        count++;
        bytes += st.size;
      }
    }
  }
  const top = await fs.stat(dir);
  newest = top.mtimeMs;
  await walk(dir);
  return { signature: `${count}:${bytes}:${newest}`, incomplete };
}

/** Observe one entry of a hot folder; null when it is gone. */
export async function observeEntry(dir: string, name: string): Promise<EntryObservation | null> {
  const full = path.join(dir, name);
  let st;
  try {
    st = await fs.stat(full);
  } catch {
    return null;
  }
  if (st.isDirectory()) {
    try {
      const f = await folderSignature(full);
      return { name, kind: 'dir', signature: f.signature, ino: st.ino, incomplete: f.incomplete };
    } catch {
      return null;
    }
  }
  if (!st.isFile()) return null;
  return { name, kind: 'file', signature: `${st.size}:${st.mtimeMs}`, ino: st.ino, incomplete: false };
}

/** One scan of a hot folder's top level: candidates, temp-named entries and markers. */
export async function scanHotFolder(dir: string): Promise<ScanListing> {
  const listing: ScanListing = { candidates: [], temps: [], marked: new Set() };
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const isDir = e.isDirectory();
    const role = roleOf(e.name, isDir);
    if (role === 'reserved') continue;
    if (role === 'marker') {
      listing.marked.add(markedName(e.name));
      continue;
    }
    const obs = await observeEntry(dir, e.name);
    if (!obs) continue;
    if (role === 'temp') listing.temps.push(obs);
    else listing.candidates.push(obs);
  }
  listing.candidates.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return listing;
}
