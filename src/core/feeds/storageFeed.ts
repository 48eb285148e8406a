import * as path from 'node:path';
import { InputError } from '../errors';
import { keyProblem, prefixProblem } from '../storageKeys';

/**
 * Feeds that live in photowire's storage (the local data directory or the bucket) rather than on
 * a machine's disk: a desk upload (`uploads/<id>/`, src/app/uploads/uploadService.ts). Such a feed
 * is named by a storage reference, `storage:<key>` (a folder: `storage:<prefix>/`), which is what
 * its ledger's `feed`, its items' `image` and its item jobs' `root` hold, so any worker on any
 * machine reads it through the storage port, never through a local path. Pure.
 */
export const STORAGE_REF = 'storage:';

export function isStorageRef(s: string): boolean {
  return s.startsWith(STORAGE_REF);
}

/** `storage:<key>` for a key (or a folder prefix ending in `/`). */
export function storageRef(key: string): string {
  const why = prefixProblem(key);
  if (why || key === '')
    throw new InputError('FEED_UNREADABLE', `not a storage key: ${JSON.stringify(key)} (${why ?? 'empty'})`);
  return STORAGE_REF + key;
}

/** The key a storage reference names; a malformed one is a FEED_UNREADABLE naming it. */
export function storageKeyOf(ref: string): string {
  if (!isStorageRef(ref)) throw new InputError('FEED_UNREADABLE', `${ref}: not a storage reference (storage:<key>)`);
  const key = ref.slice(STORAGE_REF.length);
  const why = key === '' ? 'empty' : prefixProblem(key);
  if (why) throw new InputError('FEED_UNREADABLE', `${ref}: not a storage key (${why})`);
  return key;
}

/** The folder (`storage:<prefix>/`) a storage feed file is in. */
export function storageFolderOf(ref: string): string {
  const key = storageKeyOf(ref);
  if (key.endsWith('/')) return ref;
  const slash = key.lastIndexOf('/');
  return STORAGE_REF + (slash < 0 ? '' : key.slice(0, slash + 1));
}

/**
 * Resolve a photo reference written in a storage feed (`photo.jpg`, `./a/b.jpg`) against the
 * feed's folder, and refuse anything that leaves it (`..`, an absolute path, `file:`) or that is
 * no key both storage adapters take (the same check as every key: src/core/storageKeys.ts).
 * Throws InputError PATH_OUTSIDE_FEED naming the reference and the folder.
 */
export function confineStorageRef(feedRef: string, ref: string): string {
  const folder = storageKeyOf(storageFolderOf(feedRef));
  const refuse = (why: string) =>
    new InputError(
      'PATH_OUTSIDE_FEED',
      `image path ${JSON.stringify(ref)} ${why}, outside the feed folder ${STORAGE_REF}${folder}`,
    );
  if (/^file:/i.test(ref) || ref.startsWith('/')) throw refuse('is absolute');
  // Resolved as a POSIX path below a virtual root: `..` past the folder lands outside it.
  const base = '/' + folder;
  const resolved = path.posix.resolve(base, ref.replace(/\\/g, '/'));
  if (!resolved.startsWith(base)) throw refuse(`resolves to ${resolved.slice(1) || '/'}`);
  const key = resolved.slice(1);
  const why = keyProblem(key);
  if (why) throw refuse(`is not a storage key (${why})`);
  return STORAGE_REF + key;
}

/**
 * The item stage's check, on what the job carries: the photo's key, when `image` is a storage
 * reference strictly inside the job's `root` folder (itself a storage folder) and a well-formed
 * key. Anything else is PATH_OUTSIDE_FEED naming both: a job's payload is never trusted to stay
 * inside its feed by itself.
 */
export function storedPhotoKey(root: string, image: string): string {
  const outside = (why: string) =>
    new InputError('PATH_OUTSIDE_FEED', `${image}: ${why} (the feed's folder is ${root})`);
  if (!isStorageRef(root) || !root.endsWith('/'))
    throw outside('a photo in storage must belong to a feed folder in storage');
  if (!isStorageRef(image)) throw outside('not a storage reference');
  const folder = root.slice(STORAGE_REF.length);
  const key = image.slice(STORAGE_REF.length);
  const why = keyProblem(key) ?? prefixProblem(folder);
  if (why) throw outside(`not a storage key (${why})`);
  if (!key.startsWith(folder) || key.length === folder.length) throw outside('outside the feed folder');
  return key;
}
