import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorReport, freeName, outcomeDir, type Outcome } from './destination';
import { markerName } from './names';

/**
 * Move a taken file (or folder) out of the hot folder into `processed/<day>/` or `failed/<day>/`,
 * never over an earlier file of the same name; a failed one gets `<name>.error.json` beside it.
 * Its `.done` marker is removed: it has served. Returns the new path.
 */
export async function moveTaken(hotFolder: string, name: string, outcome: Outcome, at: Date, error?: { code: string; message: string }): Promise<string> {
  const from = path.join(hotFolder, name);
  const dir = outcomeDir(hotFolder, outcome, at);
  await fs.mkdir(dir, { recursive: true });
  const free = freeName(name, (n) => existsSync(path.join(dir, n)) || existsSync(path.join(dir, `${n}.error.json`)));
  const to = path.join(dir, free);
  await fs.rename(from, to);
  if (error) await fs.writeFile(`${to}.error.json`, errorReport(from, to, error, at));
  await fs.rm(path.join(hotFolder, markerName(name)), { force: true });
  return to;
}
