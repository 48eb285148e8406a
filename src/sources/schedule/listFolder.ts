import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../../core/errors';
import { markedName, roleOf } from '../hotFolder/names';
import type { ListedFile } from './selectFiles';

export interface FolderListing {
  files: ListedFile[];
  /** Absolute paths announced complete by a `<name>.done` marker. */
  marked: Set<string>;
}

/**
 * Every file below a scheduled folder, with size and mtime. Temp names, markers, dot folders and
 * the `processed`/`failed` folders of a hot folder are left out.
 */
export async function listFolder(root: string): Promise<FolderListing> {
  try {
    if (!(await fs.stat(root)).isDirectory()) throw new InputError('FEED_UNREADABLE', `${root}: not a folder`);
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError('FEED_UNREADABLE', `${root}: ${code === 'ENOENT' ? 'no such folder' : (err as Error).message}`);
  }
  const files: ListedFile[] = [];
  const marked = new Set<string>();
  async function walk(dir: string): Promise<void> {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      let st;
      try {
        st = await fs.stat(full);
      } catch {
        continue; // gone since readdir, or a dangling symlink
      }
      const role = roleOf(e.name, st.isDirectory());
      if (role === 'marker') marked.add(path.join(dir, markedName(e.name)));
      if (role !== 'candidate') continue;
      if (st.isDirectory()) await walk(full);
      else if (st.isFile()) files.push({ abs: full, rel: path.relative(root, full), size: st.size, mtimeMs: st.mtimeMs });
    }
  }
  await walk(root);
  return { files, marked };
}
