import * as path from 'node:path';
import { InputError } from '../errors';

/**
 * Resolve `ref` (as written in a feed) against the feed's folder and refuse anything that
 * leaves it: `..` segments, absolute paths elsewhere, URLs with file: scheme. Symlinks are
 * checked at read time by the storage adapter (realpath), since a pure function cannot see them.
 */
export function confinePath(feedDir: string, ref: string): string {
  if (ref.includes('\0'))
    throw new InputError('PATH_OUTSIDE_FEED', `image path ${JSON.stringify(ref)} contains a NUL byte`);
  let rel = ref;
  if (/^file:\/\//i.test(rel)) rel = decodeURIComponent(rel.replace(/^file:\/\//i, ''));
  const root = path.resolve(feedDir);
  const resolved = path.resolve(root, rel);
  const inside = resolved === root || resolved.startsWith(root + path.sep);
  if (!inside) {
    throw new InputError(
      'PATH_OUTSIDE_FEED',
      `image path ${JSON.stringify(ref)} resolves to ${resolved}, outside the feed folder ${root}`,
    );
  }
  return resolved;
}
