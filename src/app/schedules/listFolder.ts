import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { walkFolder } from '../../adapters/feeds/walkFolder';
import { InputError } from '../../core/errors';
import { markedName, roleOf } from '../hotFolder/names';
import type { ListedFile } from './selectFiles';

export interface FolderListing {
  files: ListedFile[];
  /** Absolute paths announced complete by a `<name>.done` marker. */
  marked: Set<string>;
  /** Entries left out because their name starts with a dot (temp names of rsync, `.DS_Store`, `.git`). */
  hidden: string[];
  /** Files left out because they are still under a temporary name (`cp.jpg.part`, `x.tmp`, `x~`). */
  temps: string[];
}

/**
 * Every file below a scheduled folder (or a folder dropped into a hot folder), with size and
 * mtime. Temp names, markers, dot folders and the `processed`/`failed` folders of a hot folder are
 * left out. Symlinks are never followed (a symlinked folder is not entered: `a -> .` cannot loop)
 * but are listed, as are special files, so that whoever reads the files (loadFileList) refuses
 * or names them: a link leaving the folder fails with PATH_OUTSIDE_FEED. The walk is bounded
 * (FEED_TOO_LARGE naming the folder past WALK_MAX_ENTRIES or WALK_MAX_DEPTH) and stops on `signal`.
 */
export async function listFolder(root: string, opts: { signal?: AbortSignal } = {}): Promise<FolderListing> {
  try {
    if (!(await fs.stat(root)).isDirectory()) throw new InputError('FEED_UNREADABLE', `${root}: not a folder`);
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      'FEED_UNREADABLE',
      `${root}: ${code === 'ENOENT' ? 'no such folder' : (err as Error).message}`,
    );
  }
  const files: ListedFile[] = [];
  const marked = new Set<string>();
  const hidden: string[] = [];
  const temps: string[] = [];
  await walkFolder(
    root,
    async (e) => {
      const role = roleOf(e.name, e.kind === 'dir');
      if (role === 'marker') marked.add(path.join(path.dirname(e.abs), markedName(e.name)));
      if (e.name.startsWith('.')) hidden.push(e.abs);
      else if (role === 'temp' && e.kind !== 'dir') temps.push(e.abs);
      if (role !== 'candidate') return false;
      if (e.kind === 'dir') return true;
      // A link's size and mtime are its target's when there is one, so a photo changed behind a link is new again.
      const st = await (e.kind === 'symlink' ? fs.stat(e.abs).catch(() => fs.lstat(e.abs)) : fs.lstat(e.abs)).catch(
        () => null,
      );
      if (!st) return; // gone since readdir
      files.push({ abs: e.abs, rel: e.rel, size: st.size, mtimeMs: st.mtimeMs });
    },
    { signal: opts.signal },
  );
  return { files, marked, hidden, temps };
}
