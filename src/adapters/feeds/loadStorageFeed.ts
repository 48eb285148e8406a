import { createHash } from 'node:crypto';
import { InputError } from '../../core/errors';
import { hasImageExtension, sniffImage } from '../../core/feeds/sniff';
import { isStorageRef, storageFolderOf, storageKeyOf, storageRef } from '../../core/feeds/storageFeed';
import { isTempNameInsideFolder } from '../../core/feeds/tempNames';
import { batchIdFor, folderDigest, photoDigest } from '../../core/ids';
import type { StoragePort } from '../storage/storagePort';
import { feedOfBytes, imageItem, loadFeed, type LoadedFeed, type LoadOptions } from './loadFeed';
import { WALK_MAX_ENTRIES } from './walkFolder';

/** What reading a feed in storage needs of the port. */
export type FeedStorage = Pick<StoragePort, 'get' | 'list'>;

/**
 * Any feed: a storage reference (`storage:uploads/<id>/...`, a desk upload) through the storage
 * port, anything else as a local path (loadFeed). What the runtime's ingest service and `retry`
 * load feeds with, so a feed named in a ledger reads the same on every machine.
 */
export function loadAnyFeed(storage: FeedStorage, feed: string, maxFeedBytes: number, opts: LoadOptions = {}): Promise<LoadedFeed> {
  return isStorageRef(feed) ? loadStorageFeed(storage, feed, maxFeedBytes, opts) : loadFeed(feed, maxFeedBytes, opts);
}

/**
 * A feed kept in photowire's storage, read through the port only (listed and read, never a local
 * path), so a worker on another machine with only Redis and the bucket reads it too:
 * - `storage:<prefix>/`: a folder of photos, every object below it with an image extension, in
 *   key order (others listed as warnings); its identity is the names and sizes of its objects
 *   (an upload's folder is itself named by the digest of its files' names and bytes);
 * - `storage:<key>`: one file, parsed like a local one (manifest, XML, gallery text, or a photo);
 *   the photos it names are keys below its folder (src/core/feeds/storageFeed.ts).
 */
export async function loadStorageFeed(storage: FeedStorage, ref: string, maxFeedBytes: number, opts: LoadOptions = {}): Promise<LoadedFeed> {
  const key = storageKeyOf(ref);
  if (key.endsWith('/')) return loadStorageFolder(storage, ref, key, opts.signal);
  const bytes = await storage.get(key);
  if (!bytes) throw new InputError('FEED_UNREADABLE', `${ref}: no such object in storage`);
  if (bytes.length > maxFeedBytes && !hasImageExtension(key)) {
    throw new InputError('FEED_TOO_LARGE', `${ref}: ${(bytes.length / 1048576).toFixed(1)} MB is over the feed cap (PHOTOWIRE_MAX_FEED_MB)`);
  }
  const root = storageFolderOf(ref);
  const singlePhoto = async (): Promise<LoadedFeed> => ({
    batchId: batchIdFor(ref, photoDigest(createHash('sha256').update(bytes).digest('hex'), bytes.length, 0)),
    feedPath: ref,
    root,
    format: 'image',
    items: [imageItem(ref, 0)],
    article: null,
    warnings: [],
  });
  if (sniffImage(bytes.subarray(0, 16)) || (hasImageExtension(key) && bytes.length > maxFeedBytes)) return singlePhoto();
  return feedOfBytes(bytes, ref, root, singlePhoto);
}

async function loadStorageFolder(storage: FeedStorage, ref: string, prefix: string, signal?: AbortSignal): Promise<LoadedFeed> {
  const photos: Array<{ rel: string; size: number }> = [];
  const warnings: string[] = [];
  let seen = 0;
  for await (const o of storage.list(prefix)) {
    signal?.throwIfAborted();
    if (++seen > WALK_MAX_ENTRIES) throw new InputError('FEED_TOO_LARGE', `${ref}: more than ${WALK_MAX_ENTRIES} objects below it (the most a folder feed takes): split the delivery`);
    const rel = o.key.slice(prefix.length);
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (rel.split('/').some((part) => part.startsWith('.'))) warnings.push(`${storageRef(o.key)}: skipped, a hidden file (its name starts with a dot)`);
    else if (isTempNameInsideFolder(name)) warnings.push(`${storageRef(o.key)}: skipped, a temporary name (a file still being written is never an item)`);
    else if (!hasImageExtension(name)) warnings.push(`${storageRef(o.key)}: skipped, not an image (a folder feed takes image files only)`);
    else photos.push({ rel, size: o.size });
  }
  if (photos.length === 0) warnings.push(`${ref}: the folder holds no image files`);
  return {
    batchId: batchIdFor(ref, folderDigest(photos.map((p) => ({ rel: p.rel, sha256: null, size: p.size, mtimeMs: 0 })))),
    feedPath: ref,
    root: ref,
    format: 'image-folder',
    items: photos.map((p, i) => imageItem(storageRef(prefix + p.rel), i)),
    article: null,
    warnings,
  };
}
