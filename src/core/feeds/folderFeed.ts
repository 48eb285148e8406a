import type { FeedItem } from '../../schemas/feedItem';
import { attrText, descendants } from './xml/xmlTree';
import { parseXmlSafely } from './xml/safeXml';
import { resolveImageRef } from './xml/resolveImageRef';

/**
 * A delivery folder read whole (pure): agencies (dpa, Reuters, AFP, AP) push one NewsML-G2 or
 * NITF file per item with its picture beside it, into one folder. The folder is one feed: the
 * items of its feed files with their pictures, plus a record for every picture no item names. A
 * picture an item names is never a second, bare record. Every folder reader uses this: a local
 * folder (`run`, `ingest`, a folder dropped into a hot folder), a scheduled run's new files and
 * a desk upload in storage, so the same delivery gives the same records whichever way it came.
 */

/** One file of the folder, as its reader saw it. */
export interface FolderPart {
  /** Absolute path, or a storage reference. */
  file: string;
  /** A picture: its one item stands alone unless a feed of the folder names it. */
  picture: boolean;
  /** A picture's own item, a feed's items, or one item carrying why the file was refused. */
  items: FeedItem[];
  /** Every picture the feed names beside it (each rendition, by href, residref or file name): none of them is a record of its own. */
  names?: string[];
  article?: string | null;
  skipped?: Record<string, number>;
}

export interface AssembledFolder {
  items: FeedItem[];
  article: string | null;
  skipped: Record<string, number>;
  /** Pictures taken into a feed's item (or named as another rendition of one) instead of standing alone. */
  paired: number;
  /** Feed items whose picture is not in the folder (PICTURE_MISSING). */
  missing: number;
}

const REMOTE = /^https?:\/\//i;

/** A picture path an item names inside the delivery (not a URL): the one that must be there. */
export function localPicture(item: FeedItem): string | null {
  return item.image !== null && !REMOTE.test(item.image) ? item.image : null;
}

/**
 * The picture files a wire XML document names beside itself, every rendition of every item:
 * a relative href (dpa: `urn_binary_dpa_com_..-FILED.jpeg`), a residref (Reuters delivers
 * `tag_reuters.com_0000_binary_..-BASEIMAGE` next to the item, and its VIEWIMAGE and THUMBNAIL
 * too), the last segment of a remote href (the file name it would be saved under), and a NITF
 * media-reference source. Resolved like the parsers resolve them (confined to the feed's folder);
 * a document that does not parse names nothing (the parser reports it).
 */
export function wireXmlNames(text: string, feedPath: string): string[] {
  let root;
  try {
    root = parseXmlSafely(text, feedPath);
  } catch {
    return [];
  }
  const raw: Array<{ value: string; isUri: boolean }> = [];
  for (const rc of descendants(root, 'remoteContent')) {
    const href = attrText(rc, 'href');
    const residref = attrText(rc, 'residref');
    if (href !== undefined) {
      if (REMOTE.test(href)) {
        const last = lastSegment(href);
        if (last) raw.push({ value: last, isUri: false });
      } else raw.push({ value: href, isUri: true });
    }
    if (residref !== undefined) {
      for (const name of new Set([residref, residref.replace(/[:/\\]/g, '_')])) {
        if (!name.includes('/') && !name.includes('\\') && !name.startsWith('.'))
          raw.push({ value: name, isUri: false });
      }
    }
  }
  for (const ref of descendants(root, 'media-reference')) {
    const source = attrText(ref, 'source');
    if (source !== undefined && !REMOTE.test(source)) raw.push({ value: source, isUri: true });
  }
  const out = new Set<string>();
  for (const r of raw) {
    const resolved = resolveImageRef(feedPath, r.value, r.isUri, feedPath);
    if (resolved.image !== null && !resolved.error && !REMOTE.test(resolved.image)) out.add(resolved.image);
  }
  return [...out];
}

function lastSegment(url: string): string | null {
  try {
    const seg = new URL(url).pathname.split('/').pop() ?? '';
    const name = decodeURIComponent(seg);
    return name && !name.startsWith('.') && !name.includes('\\') ? name : null;
  } catch {
    return null;
  }
}

/**
 * An item whose picture is not in the delivery keeps its metadata and fails with
 * PICTURE_MISSING, saying which file it waited for. `exists` answers for the folder as read.
 */
export function markMissingPicture(
  item: FeedItem,
  exists: (p: string) => boolean,
  why = 'is not in the delivery folder',
): FeedItem {
  const pic = localPicture(item);
  if (item.error || pic === null || exists(pic)) return item;
  return {
    ...item,
    error: {
      code: 'PICTURE_MISSING',
      message: `${item.source.file}: item ${item.source.position + 1}${item.agencyId ? ` (${item.agencyId})` : ''}: its picture ${pic} ${why}`,
    },
  };
}

/**
 * The folder's parts (in name order) as one feed: each feed's items in place, each picture that
 * no item names as an item of its own, positions renumbered across the batch (records are keyed
 * by position). `exists` says whether a path is in the folder (listed, or on disk).
 */
export function assembleFolderFeed(parts: FolderPart[], exists: (p: string) => boolean): AssembledFolder {
  const named = new Set<string>();
  for (const p of parts) {
    if (p.picture) continue;
    for (const it of p.items) {
      const pic = localPicture(it);
      if (pic !== null) named.add(pic);
    }
    for (const n of p.names ?? []) named.add(n);
  }
  const items: FeedItem[] = [];
  const articles: string[] = [];
  const skipped: Record<string, number> = {};
  let paired = 0;
  let missing = 0;
  for (const p of parts) {
    if (p.article) articles.push(p.article);
    for (const [kind, n] of Object.entries(p.skipped ?? {})) skipped[kind] = (skipped[kind] ?? 0) + n;
    if (p.picture && named.has(p.file)) {
      paired++;
      continue;
    }
    for (const it of p.items) {
      const checked = p.picture ? it : markMissingPicture(it, exists);
      if (checked !== it) missing++;
      items.push({ ...checked, source: { ...checked.source, position: items.length } });
    }
  }
  return { items, article: articles.length ? articles.join('\n\n') : null, skipped, paired, missing };
}
