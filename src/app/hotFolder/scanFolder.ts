import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInputError } from '../../core/errors';
import { walkFolder } from '../../adapters/feeds/walkFolder';
import { isTempNameInsideFolder, markedName, roleOf } from './names';
import type { EntryObservation, ScanListing } from './settle';

/**
 * What is in a folder feed right now: file count, total size, newest mtime (folders included,
 * so a file added or removed shows), and whether an upload is still going on inside it.
 * Symlinks are not followed (a link counts by its own lstat: `a -> .` cannot loop the walk), and
 * the walk is bounded (WALK_MAX_ENTRIES, WALK_MAX_DEPTH): past them the signature stops growing
 * and says so, the folder settles and its loader refuses it with FEED_TOO_LARGE naming it.
 */
async function folderSignature(
  dir: string,
  signal?: AbortSignal,
): Promise<{ signature: string; incomplete: boolean; tempNames: string[] }> {
  const tempNames: string[] = [];
  let count = 0;
  let bytes = 0;
  let newest = 0;
  let incomplete = false;
  let over = '';
  const top = await fs.lstat(dir);
  newest = top.mtimeMs;
  try {
    await walkFolder(
      dir,
      async (e) => {
        if (isTempNameInsideFolder(e.name)) {
          incomplete = true;
          if (tempNames.length < TEMP_NAMES_KEPT) tempNames.push(e.rel);
        }
        let st;
        try {
          st = await fs.lstat(e.abs);
        } catch {
          return false;
        }
        newest = Math.max(newest, st.mtimeMs);
        if (e.kind !== 'dir') {
          count++;
          bytes += st.size;
        }
      },
      {
        signal,
        // Being moved or deleted under us: look again next scan.
        onUnreadable: () => {
          incomplete = true;
        },
      },
    );
  } catch (err) {
    if (!isInputError(err)) throw err;
    over = ':over-limit';
  }
  return { signature: `${count}:${bytes}:${newest}${over}`, incomplete, tempNames };
}

/** How many temp-named files of a folder are named in messages. */
const TEMP_NAMES_KEPT = 5;

/**
 * Observe one entry of a hot folder; null when it is gone. The entry itself is never followed: a
 * symlink is a `link` (refused when taken), whatever it points to.
 */
export async function observeEntry(dir: string, name: string, signal?: AbortSignal): Promise<EntryObservation | null> {
  const full = path.join(dir, name);
  let st;
  try {
    st = await fs.lstat(full);
  } catch {
    return null;
  }
  if (st.isSymbolicLink())
    return { name, kind: 'link', signature: `${st.size}:${st.mtimeMs}`, ino: st.ino, incomplete: false };
  if (st.isDirectory()) {
    try {
      const f = await folderSignature(full, signal);
      return {
        name,
        kind: 'dir',
        signature: f.signature,
        ino: st.ino,
        incomplete: f.incomplete,
        ...(f.incomplete ? { tempNames: f.tempNames } : {}),
      };
    } catch (err) {
      if (signal?.aborted) throw err;
      return null;
    }
  }
  if (!st.isFile())
    return { name, kind: 'special', signature: `${st.mode}:${st.mtimeMs}`, ino: st.ino, incomplete: false };
  return { name, kind: 'file', signature: `${st.size}:${st.mtimeMs}`, ino: st.ino, incomplete: false };
}

/**
 * The most top-level entries one scan looks at. A flood of thousands of files dropped at once is
 * taken a slice at a time (the taken ones leave the folder, the next scan sees the next ones)
 * instead of one scan lstat-ing and holding every name; `ScanListing.truncated` says so.
 */
export const SCAN_MAX_TOP_LEVEL = 10_000;

/** One scan of a hot folder's top level: candidates, temp-named entries and markers (at most `maxEntries` entries). */
export async function scanHotFolder(
  dir: string,
  signal?: AbortSignal,
  maxEntries = SCAN_MAX_TOP_LEVEL,
): Promise<ScanListing> {
  const listing: ScanListing = { candidates: [], temps: [], marked: new Set() };
  const entries = [];
  // opendir streams the folder: a million names are never read at once.
  for await (const e of await fs.opendir(dir)) {
    if (entries.length >= maxEntries) {
      listing.truncated = true;
      break;
    }
    entries.push(e);
  }
  for (const e of entries) {
    signal?.throwIfAborted();
    const isDir = e.isDirectory(); // a symlink to a folder is not a folder here: it is refused when taken
    const role = roleOf(e.name, isDir);
    if (role === 'reserved') continue;
    if (role === 'marker') {
      listing.marked.add(markedName(e.name));
      continue;
    }
    const obs = await observeEntry(dir, e.name, signal);
    if (!obs) continue;
    if (role === 'temp') listing.temps.push(obs);
    else listing.candidates.push(obs);
  }
  listing.candidates.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return listing;
}
