import { createHash } from 'node:crypto';
import { InputError, isInputError } from '../../core/errors';
import { assembleFolderFeed, type FolderPart } from '../../core/feeds/folderFeed';
import { hasImageExtension, sniffImage } from '../../core/feeds/sniff';
import { isStorageRef, storageFolderOf, storageKeyOf, storageRef } from '../../core/feeds/storageFeed';
import { isTempNameInsideFolder } from '../../core/feeds/tempNames';
import { batchIdFor, folderDigest, photoDigest } from '../../core/ids';
import type { StoragePort } from '../storage/storagePort';
import { feedOfBytes, imageItem, loadFeed, parseFeedBytes, type LoadedFeed, type LoadOptions } from './loadFeed';
import { WALK_MAX_ENTRIES } from './walkFolder';

/** What reading a feed in storage needs of the port. */
export type FeedStorage = Pick<StoragePort, 'get' | 'list'>;

/**
 * Any feed: a storage reference (`storage:uploads/<id>/...`, a desk upload) through the storage
 * port, anything else as a local path (loadFeed). What the runtime's ingest service and `retry`
 * load feeds with, so a feed named in a ledger reads the same on every machine.
 */
export function loadAnyFeed(
  storage: FeedStorage,
  feed: string,
  maxFeedBytes: number,
  opts: LoadOptions = {},
): Promise<LoadedFeed> {
  return isStorageRef(feed) ? loadStorageFeed(storage, feed, maxFeedBytes, opts) : loadFeed(feed, maxFeedBytes, opts);
}

/**
 * A feed kept in photowire's storage, read through the port only (listed and read, never a local
 * path), so a worker on another machine with only Redis and the bucket reads it too:
 * - `storage:<prefix>/`: a folder feed read as a local one is (src/core/feeds/folderFeed.ts): its
 *   pictures (by extension or content) and feed files (an agency's XML per item beside its
 *   picture), in key order, a picture an item names taken with that item; its identity is the
 *   names and sizes of its objects (an upload's folder is itself named by the digest of its files'
 *   names and bytes);
 * - `storage:<key>`: one file, parsed like a local one (manifest, XML, gallery text, or a photo);
 *   the photos it names are keys below its folder (src/core/feeds/storageFeed.ts).
 */
export async function loadStorageFeed(
  storage: FeedStorage,
  ref: string,
  maxFeedBytes: number,
  opts: LoadOptions = {},
): Promise<LoadedFeed> {
  const key = storageKeyOf(ref);
  if (key.endsWith('/')) return loadStorageFolder(storage, ref, key, maxFeedBytes, opts.signal);
  const bytes = await storage.get(key);
  if (!bytes) throw new InputError('FEED_UNREADABLE', `${ref}: no such object in storage`);
  if (bytes.length > maxFeedBytes && !hasImageExtension(key)) {
    throw new InputError(
      'FEED_TOO_LARGE',
      `${ref}: ${(bytes.length / 1048576).toFixed(1)} MB is over the feed cap (PHOTOWIRE_MAX_FEED_MB)`,
    );
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
  if (sniffImage(bytes.subarray(0, 16)) || (hasImageExtension(key) && bytes.length > maxFeedBytes))
    return singlePhoto();
  return feedOfBytes(bytes, ref, root, singlePhoto);
}

async function loadStorageFolder(
  storage: FeedStorage,
  ref: string,
  prefix: string,
  maxFeedBytes: number,
  signal?: AbortSignal,
): Promise<LoadedFeed> {
  const objects: Array<{ key: string; rel: string; size: number }> = [];
  const warnings: string[] = [];
  const unread: string[] = [];
  let seen = 0;
  for await (const o of storage.list(prefix)) {
    signal?.throwIfAborted();
    if (++seen > WALK_MAX_ENTRIES)
      throw new InputError(
        'FEED_TOO_LARGE',
        `${ref}: more than ${WALK_MAX_ENTRIES} objects below it (the most a folder feed takes): split the delivery`,
      );
    const rel = o.key.slice(prefix.length);
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (rel.split('/').some((part) => part.startsWith('.')))
      warnings.push(`${storageRef(o.key)}: skipped, a hidden file (its name starts with a dot)`);
    else if (isTempNameInsideFolder(name))
      warnings.push(`${storageRef(o.key)}: skipped, a temporary name (a file still being written is never an item)`);
    else objects.push({ key: o.key, rel, size: o.size });
  }
  objects.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const listed = new Set(objects.map((o) => storageRef(o.key)));
  // The objects an XML item may name beside itself: only what this listing holds (never a local path).
  const wireOptions = { localFile: (p: string) => listed.has(p), readRef: () => null };
  const parts: FolderPart[] = [];
  for (const o of objects) {
    signal?.throwIfAborted();
    const file = storageRef(o.key);
    if (hasImageExtension(o.rel)) {
      parts.push({ file, picture: true, items: [imageItem(file, 0)] });
      continue;
    }
    const refused = (code: string, message: string) =>
      parts.push({
        file,
        picture: false,
        items: [
          {
            source: { file, position: 0, format: 'unreadable' },
            captionRaw: '',
            iptc: {},
            image: null,
            error: { code, message },
          },
        ],
      });
    if (o.size > maxFeedBytes) {
      warnings.push(
        `${file}: skipped, not a picture, and at ${(o.size / 1048576).toFixed(1)} MB over the feed cap (PHOTOWIRE_MAX_FEED_MB): not read`,
      );
      unread.push(o.rel);
      continue;
    }
    const bytes = await storage.get(o.key);
    if (!bytes) continue; // removed since the listing
    if (sniffImage(bytes.subarray(0, 16))) {
      // A picture without an extension (Reuters' `..-BASEIMAGE`): read by content, as on disk.
      parts.push({ file, picture: true, items: [imageItem(file, 0)] });
      continue;
    }
    try {
      const feed = parseFeedBytes(bytes, file, wireOptions);
      warnings.push(...feed.warnings);
      parts.push({
        file,
        picture: false,
        items: feed.items,
        names: feed.names,
        article: feed.article,
        skipped: feed.skipped,
      });
    } catch (err) {
      if (!isInputError(err)) throw err;
      if (err.code === 'FEED_UNKNOWN_FORMAT') {
        warnings.push(`${file}: skipped, not a picture or a feed photowire reads`);
        unread.push(o.rel);
      } else refused(err.code, err.message);
    }
  }
  const folder = assembleFolderFeed(parts, (p) => listed.has(p));
  if (folder.items.length === 0) {
    const shown = unread.slice(0, 5);
    throw new InputError(
      'FEED_EMPTY',
      `${ref}: no picture and no feed photowire reads${unread.length ? `; ${unread.length} file(s) skipped (${shown.join(', ')}${unread.length > shown.length ? ', ...' : ''})` : ''}`,
    );
  }
  if (folder.paired)
    warnings.push(`${ref}: ${folder.paired} picture(s) taken with the item that names them, not on their own`);
  const skipped = { ...folder.skipped, ...(unread.length ? { file: unread.length } : {}) };
  const hasFeeds = parts.some((p) => !p.picture);
  // A folder of photos keeps the identity it had before feeds inside were read: its photos' names and sizes.
  const identity = (hasFeeds ? objects : objects.filter((o) => hasImageExtension(o.rel))).map((o) => ({
    rel: o.rel,
    sha256: null,
    size: o.size,
    mtimeMs: 0,
  }));
  return {
    batchId: batchIdFor(ref, folderDigest(identity)),
    feedPath: ref,
    root: ref,
    format: hasFeeds ? 'folder-bundle' : 'image-folder',
    items: folder.items,
    article: folder.article,
    warnings,
    ...(Object.keys(skipped).length ? { skipped } : {}),
  };
}
