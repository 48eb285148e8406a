import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isStorageRef } from './feeds/storageFeed';

/** Lower-case, dash-separated, short: batch ids are typed by people at the CLI. */
function slug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[^\w\s.-]/g, '')
      .replace(/\.[a-z0-9]{1,8}$/i, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 40) || 'feed'
  );
}

/**
 * A batch id from the feed's absolute path and a digest of its content: re-dropping the same
 * feed lands on the same batch (nothing is taken twice); a changed feed gets a new one. The
 * content digest is, exactly:
 * - a text feed (manifest, XML, gallery text): the SHA-256 of its bytes;
 * - a single photo: `photoDigest`, the SHA-256 of its bytes (size and mtime only past 1 GiB);
 * - a folder (of photos, or a feed bundled with its photos): `folderDigest`, over each taken
 *   file's path relative to the folder and the SHA-256 of its bytes, in name order;
 * - a scheduled run: the schedule, the run id and each file taken with its size and mtime.
 * Mtimes play no part for photos and folders: the same bytes dropped again with a new mtime (a
 * copy, a re-send) land on the same batch. Measured cost of hashing: src/adapters/feeds/hashFile.ts.
 */
export function batchIdFor(feedPath: string, contentDigest: string): string {
  // A feed in storage (`storage:<key>`) is named the same on every machine: not resolved against the cwd.
  const h = createHash('sha256')
    .update(isStorageRef(feedPath) ? feedPath : path.resolve(feedPath))
    .update('\0')
    .update(contentDigest)
    .digest('hex');
  return `${slug(path.basename(feedPath))}-${h.slice(0, 12)}`;
}

/** An item id from its batch and position: stable across retries and re-drops. */
export function itemIdFor(batchId: string, position: number): string {
  return `${batchId}-${String(position + 1).padStart(4, '0')}`;
}

/** A batch id's grammar as batchIdFor makes it: `<slug>-<12 hex>`. */
const BATCH_ID = '[a-z0-9](?:[a-z0-9-]{0,39})-[0-9a-f]{12}';
/** An item's 1-based position as itemIdFor writes it: at least four digits (a billion items is past every cap). */
const POSITION = /^\d{4,9}$/;
const ITEM_ID = new RegExp(`^(${BATCH_ID})-(\\d{4,9})$`);

/**
 * The batch and 0-based index an item id names (itemIdFor's inverse), or null when the text is not
 * an item id: the one reading of the item-id grammar. Without `batchId`, by grammar alone (the
 * batch id as batchIdFor makes it); with it, only an id of that batch, whatever its batch id
 * looks like (`a-b-0001` is item 0 of batch `a-b`, never of `a`).
 */
export function parseItemId(text: string, batchId?: string): { batchId: string; index: number } | null {
  let batch: string;
  let position: string;
  if (batchId === undefined) {
    const m = ITEM_ID.exec(text);
    if (!m) return null;
    [, batch, position] = m;
  } else {
    if (!text.startsWith(`${batchId}-`)) return null;
    batch = batchId;
    position = text.slice(batchId.length + 1);
    if (!POSITION.test(position)) return null;
  }
  const n = Number(position);
  return n >= 1 ? { batchId: batch, index: n - 1 } : null;
}

/**
 * An item id of any batch id (the text before its last `-<position>`), for ids that name records
 * already stored, whose batch may predate batchIdFor's grammar (cluster members): the batch read
 * may be wrong for an id like `a-b-0001`, so the caller keeps only a record whose id is the one asked.
 */
export function splitItemId(text: string): { batchId: string; index: number } | null {
  const cut = text.lastIndexOf('-');
  return cut > 0 ? parseItemId(text, text.slice(0, cut)) : null;
}

/** The item's batch index, or null when the id is not one of that batch's (parseItemId with the batch). */
export function itemIndexOf(batchId: string, itemId: string): number | null {
  return parseItemId(itemId, batchId)?.index ?? null;
}

/** The content digest of a single photo: its SHA-256, or (null: too big to hash) its size and mtime. */
export function photoDigest(sha256: string | null, size: number, mtimeMs: number): string {
  return sha256 !== null ? `sha256:${sha256}` : `file:${size}:${mtimeMs}`;
}

/**
 * The content digest of a folder: each file's relative path and SHA-256 (or size and mtime when
 * it was not hashed: too big, or refused unread), in name order.
 */
export function folderDigest(
  files: Array<{ rel: string; sha256: string | null; size: number; mtimeMs: number }>,
): string {
  const sorted = [...files].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const h = createHash('sha256').update('folder\n');
  for (const f of sorted) h.update(`${f.rel}\0${f.sha256 ?? `file:${f.size}:${f.mtimeMs}`}\n`);
  return h.digest('hex');
}
