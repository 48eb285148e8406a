import { lstatSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorReport, freeName, outcomeDir, type Outcome } from './destination';
import { markerName } from './names';

/**
 * Move a taken file (or folder) out of the hot folder into `processed/<day>/` or `failed/<day>/`,
 * never over an earlier file of the same name; a failed one gets `<name>.error.json` beside it.
 * Its `.done` marker is removed: it has served. Returns the new path.
 * Nothing is moved or written through a symlink: `processed/`, `failed/` and the day folder must be
 * real folders (a sender's `hot/processed -> /elsewhere` would otherwise carry every file out),
 * a name taken by anything, a dangling link included, is never reused, and the `.error.json` is
 * created exclusively (O_EXCL does not follow a link planted under its name).
 */
export async function moveTaken(
  hotFolder: string,
  name: string,
  outcome: Outcome,
  at: Date,
  error?: { code: string; message: string },
): Promise<string> {
  const from = path.join(hotFolder, name);
  const dir = outcomeDir(hotFolder, outcome, at);
  await realFolder(path.join(hotFolder, outcome));
  await realFolder(dir);
  const free = freeName(name, (n) => present(path.join(dir, n)) || present(path.join(dir, `${n}.error.json`)));
  const to = path.join(dir, free);
  await fs.rename(from, to);
  if (error) await fs.writeFile(`${to}.error.json`, errorReport(from, to, error, at), { flag: 'wx' });
  await fs.rm(path.join(hotFolder, markerName(name)), { force: true });
  return to;
}

/** Anything under that name, a dangling symlink included (existsSync follows links and says no). */
function present(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Make `dir` if missing; refuse it when it is a symlink or not a folder. */
async function realFolder(dir: string): Promise<void> {
  await fs.mkdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  const st = await fs.lstat(dir);
  if (!st.isDirectory()) {
    throw new Error(
      `${dir} is ${st.isSymbolicLink() ? 'a symlink' : 'not a folder'}: nothing is moved through it (photowire's own folder in the hot folder); remove it`,
    );
  }
}
