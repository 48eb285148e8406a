import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { HttpError } from './httpError';

const inside = (p: string, root: string) => p === root || p.startsWith(root + path.sep);

/**
 * A feed named by path must really be (symlinks followed) under one of the allowed roots
 * (PHOTOWIRE_FEED_ROOTS): the API never reads an arbitrary file of the server's disk.
 * A relative path is taken from the first root.
 */
export async function resolveFeedPath(given: string, roots: string[]): Promise<string> {
  if (roots.length === 0) {
    throw new HttpError(
      403,
      'PATH_SUBMIT_DISABLED',
      'feeds cannot be named by path on this server: set PHOTOWIRE_FEED_ROOTS to the folders it may read, or upload the files',
    );
  }
  if (given.includes('\0')) throw new HttpError(400, 'BAD_REQUEST', 'the path holds a NUL byte');
  const abs = path.resolve(roots[0], given);
  const outside = () =>
    new HttpError(403, 'PATH_OUTSIDE_ROOTS', `${abs} is not under an allowed feed root (${roots.join(', ')})`);
  // Refused before the disk is touched, so the API cannot be used to probe which paths exist.
  if (!roots.some((r) => inside(abs, r))) throw outside();
  let real: string;
  try {
    real = await fs.realpath(abs);
  } catch {
    throw new HttpError(404, 'FEED_UNREADABLE', `${abs}: no such file or folder`);
  }
  for (const root of roots) {
    const realRoot = await fs.realpath(root).catch(() => null);
    if (realRoot && inside(real, realRoot)) return real;
  }
  throw outside();
}
