import { promises as fs, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InputError } from '../../core/errors';

/**
 * Bounds of every folder walk (hot-folder observation, folder feeds, scheduled folders). A
 * delivery is a few hundred photos a few folders deep; a scheduled import folder keeps years of
 * nights (365 x 500 photos is 182,500 files). Past these a walk stops with FEED_TOO_LARGE naming
 * the folder, instead of growing without end (a bind-mount loop, a runaway tree).
 */
export const WALK_MAX_ENTRIES = 250_000;
export const WALK_MAX_DEPTH = 32;
/**
 * A walk gives the event loop a turn every this many entries, so a signal handler, lock renewals
 * and other hot folders are served while it runs (each readdir is already asynchronous, but a
 * folder of 10,000 entries would otherwise be handled in one go).
 */
export const WALK_YIELD_EVERY = 256;

export type WalkKind = 'file' | 'dir' | 'symlink' | 'other';

export interface WalkEntry {
  abs: string;
  /** Relative to the walk's root. */
  rel: string;
  name: string;
  /** 1 for an entry directly in the root. */
  depth: number;
  /** From the directory entry itself (d_type, else lstat): a symlink is `symlink`, whatever it points to. */
  kind: WalkKind;
  /** For `other`: what it is (`a FIFO`, `a socket`, `a device`). */
  special: string | null;
}

export interface WalkOptions {
  maxEntries?: number;
  maxDepth?: number;
  /** Abort the walk (the watcher or scheduler stopping): it rejects with the signal's reason at the next entry. */
  signal?: AbortSignal;
  /** A sub-folder that cannot be read (removed while we walk, no permission); without it the error is thrown. */
  onUnreadable?: (dir: string, err: NodeJS.ErrnoException) => void;
}

function kindOf(e: Dirent): { kind: WalkKind; special: string | null } {
  if (e.isSymbolicLink()) return { kind: 'symlink', special: null };
  if (e.isDirectory()) return { kind: 'dir', special: null };
  if (e.isFile()) return { kind: 'file', special: null };
  const special = e.isFIFO()
    ? 'a FIFO'
    : e.isSocket()
      ? 'a socket'
      : e.isBlockDevice() || e.isCharacterDevice()
        ? 'a device'
        : 'not a file';
  return { kind: 'other', special };
}

/**
 * Walk the tree below `root` depth first, in name order, never following a symlink (a symlinked
 * folder is reported as a `symlink` entry and not entered: `a -> .` cannot loop). `visit` is called
 * for every entry; for a folder it returns false to skip what is below it. Bounded by
 * `maxEntries` and `maxDepth` (InputError FEED_TOO_LARGE naming the root); yields to the event
 * loop every WALK_YIELD_EVERY entries and stops when `signal` aborts.
 */
export async function walkFolder(
  root: string,
  visit: (e: WalkEntry) => boolean | void | Promise<boolean | void>,
  opts: WalkOptions = {},
): Promise<{ entries: number }> {
  const maxEntries = opts.maxEntries ?? WALK_MAX_ENTRIES;
  const maxDepth = opts.maxDepth ?? WALK_MAX_DEPTH;
  let entries = 0;
  async function walk(dir: string, depth: number): Promise<void> {
    opts.signal?.throwIfAborted();
    let list: Dirent[];
    try {
      list = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (dir === root || !opts.onUnreadable) throw err;
      opts.onUnreadable(dir, err as NodeJS.ErrnoException);
      return;
    }
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of list) {
      if (++entries > maxEntries) {
        throw new InputError(
          'FEED_TOO_LARGE',
          `${root}: more than ${maxEntries} files and folders below it (the most a folder walk takes; symlinked folders are never followed): split the delivery`,
        );
      }
      if (entries % WALK_YIELD_EVERY === 0) await nextTurn();
      opts.signal?.throwIfAborted();
      const abs = path.join(dir, e.name);
      const entry: WalkEntry = { abs, rel: path.relative(root, abs), name: e.name, depth, ...kindOf(e) };
      const descend = await visit(entry);
      if (entry.kind !== 'dir' || descend === false) continue;
      if (depth >= maxDepth) {
        throw new InputError(
          'FEED_TOO_LARGE',
          `${root}: folders nested deeper than ${maxDepth} levels (at ${entry.rel}): the most a folder walk goes down`,
        );
      }
      await walk(abs, depth + 1);
    }
  }
  await walk(root, 1);
  return { entries };
}
