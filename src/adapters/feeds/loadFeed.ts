import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InputError, isInputError } from '../../core/errors';
import { parseGalleryText, looksLikeGallery } from '../../core/feeds/galleryText';
import { parseJsonManifest, parseNdjsonManifest } from '../../core/feeds/manifest';
import { detectTextFeed, hasImageExtension, sniffImage } from '../../core/feeds/sniff';
import { parseCsvManifest } from '../../core/feeds/csvManifest';
import { decodeFeedText } from '../../core/feeds/decodeFeedText';
import { parseTextWire } from '../../core/feeds/textWire';
import { capArticle, capFeedItems } from '../../core/feeds/capItems';
import { detectXmlFlavor } from '../../core/feeds/xml/detectXmlFlavor';
import { parseWireXml } from '../../core/feeds/xml/parseWireXml';
import { countSkipped, skippedWarnings } from '../../core/feeds/xml/wireXmlResult';
import { batchIdFor, folderDigest, photoDigest } from '../../core/ids';
import type { FeedItem } from '../../schemas/feedItem';
import { localWireXmlOptions } from './wireXmlRefs';
import { sha256File } from './hashFile';
import { walkFolder } from './walkFolder';
import { isTempNameInsideFolder } from '../../core/feeds/tempNames';
import { isStorageRef } from '../../core/feeds/storageFeed';
import { assembleFolderFeed, wireXmlNames, type FolderPart } from '../../core/feeds/folderFeed';
import type { NewsmlG2Options } from '../../core/feeds/xml/newsmlG2';

export interface LoadedFeed {
  batchId: string;
  /** The feed as given (absolute path). */
  feedPath: string;
  /** Images named by the feed must stay inside this folder. */
  root: string;
  format: string;
  items: FeedItem[];
  /** Gallery article text or similar batch-level text that is not a caption. */
  article: string | null;
  warnings: string[];
  /** Items of the feed that are not photos, by kind (`{ text: 1, video: 1 }`), and a folder's files read as neither (`file`); listed in `warnings` too. */
  skipped?: Record<string, number>;
  /** A wire XML feed's pictures beside it, every rendition (src/core/feeds/folderFeed.ts wireXmlNames): in a folder, none is a record of its own. */
  names?: string[];
}

const TEXT_FEED_FORMATS =
  'a JPEG (or PNG/TIFF/WebP) with IPTC/XMP, a folder of them, an NDJSON/JSON/CSV manifest, NewsML-G2, NewsML 1.2 or NITF XML (UTF-8, UTF-16 or a declared charset), an IPTC 7901 / ANPA 1312 text wire, or gallery text with "(N of M)" counters';

export interface LoadOptions {
  /** Stops a folder walk or a photo's hashing (the watcher or scheduler stopping). */
  signal?: AbortSignal;
}

export async function loadFeed(input: string, maxFeedBytes: number, opts: LoadOptions = {}): Promise<LoadedFeed> {
  const feedPath = path.resolve(input);
  let st;
  try {
    st = await fs.stat(feedPath);
  } catch (err) {
    throw new InputError(
      'FEED_UNREADABLE',
      `${feedPath}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (err as Error).message}`,
    );
  }
  if (st.isDirectory()) return loadFolder(feedPath, maxFeedBytes, opts.signal);
  if (!st.isFile()) throw new InputError('FEED_UNREADABLE', `${feedPath}: not a file or folder`);
  if (st.size > maxFeedBytes && !hasImageExtension(feedPath)) {
    throw new InputError(
      'FEED_TOO_LARGE',
      `${feedPath}: ${(st.size / 1048576).toFixed(1)} MB is over the feed cap (PHOTOWIRE_MAX_FEED_MB)`,
    );
  }

  // A single photo is a feed of one; its batch id comes from its path and bytes (src/core/ids.ts).
  const singlePhoto = async (): Promise<LoadedFeed> => ({
    batchId: batchIdFor(
      feedPath,
      photoDigest(st.size <= HASH_MAX_BYTES ? await sha256File(feedPath, opts.signal) : null, st.size, st.mtimeMs),
    ),
    feedPath,
    root: path.dirname(feedPath),
    format: 'image',
    items: [imageItem(feedPath, 0)],
    article: null,
    warnings: [],
  });
  const head = await readHead(feedPath, 16);
  if (sniffImage(head) || (hasImageExtension(feedPath) && st.size > maxFeedBytes)) return await singlePhoto();

  return feedOfBytes(await fs.readFile(feedPath), feedPath, path.dirname(feedPath), singlePhoto);
}

/**
 * A text feed from its bytes (a file, or an object in storage: src/adapters/feeds/loadStorageFeed.ts),
 * its batch id from `feedPath` and the bytes' SHA-256; `root` is the folder its photos must stay in.
 */
export async function feedOfBytes(
  bytes: Buffer,
  feedPath: string,
  root: string,
  singlePhoto: () => Promise<LoadedFeed>,
): Promise<LoadedFeed> {
  const batchId = batchIdFor(feedPath, createHash('sha256').update(bytes).digest('hex'));
  try {
    return { batchId, feedPath, root, ...parseFeedBytes(bytes, feedPath) };
  } catch (err) {
    // An empty or broken `photo.jpg` given on its own (an HTML error page saved under the photo's
    // name, say) is a photo that failed, not a mystery feed: its item says why (IMAGE_CORRUPT
    // "the file is empty", IMAGE_UNSUPPORTED "not an image format").
    if (
      isInputError(err) &&
      (err.code === 'FEED_UNKNOWN_FORMAT' || err.code === 'FEED_MALFORMED') &&
      hasImageExtension(feedPath)
    )
      return await singlePhoto();
    throw err;
  }
}

export type ParsedFeed = Pick<LoadedFeed, 'format' | 'items' | 'article' | 'warnings' | 'skipped' | 'names'>;

/**
 * Parse the bytes of a text feed (not a photo). `feedPath` names the feed in messages and is what
 * relative image references resolve against: a file path, or the URL of a feed fetched over HTTP.
 */
export function parseFeedBytes(bytes: Buffer, feedPath: string, wireOptions?: NewsmlG2Options): ParsedFeed {
  // Every format's items are capped here, as they are read: nothing over a field's cap reaches a job, Redis or an export.
  const parsed = parseUncapped(bytes, feedPath, wireOptions);
  const warnings = [...parsed.warnings];
  const items = capFeedItems(parsed.items, warnings);
  return { ...parsed, items, article: capArticle(parsed.article, feedPath, warnings), warnings };
}

function parseUncapped(bytes: Buffer, feedPath: string, wireOptions?: NewsmlG2Options): ParsedFeed {
  const base = { article: null, warnings: [] as string[] };
  // UTF-16 (BOM or the NULs of its prolog) and an XML declaration's charset are honoured here, for every format.
  const decoded = decodeFeedText(bytes, feedPath);
  const text = decoded.text;
  const kind = detectTextFeed(text, feedPath, looksLikeGallery);
  switch (kind) {
    case 'text-wire': {
      // Decoded message by message from the bytes: a wire declares no charset (UTF-8, else Latin-1).
      const w = parseTextWire(bytes, feedPath);
      return { ...base, format: 'iptc7901', items: w.items, warnings: w.warnings };
    }
    case 'gallery-text': {
      const g = parseGalleryText(text, feedPath);
      return { ...base, format: kind, items: g.items, article: g.article || null, warnings: g.warnings };
    }
    case 'manifest-ndjson': {
      // Decoded line by line so one line of bad UTF-8 fails that line only.
      const m = parseNdjsonManifest(bytes, feedPath);
      return { ...base, format: kind, items: m.items, warnings: m.warnings };
    }
    case 'manifest-json': {
      const m = parseJsonManifest(decoded.encoding.startsWith('utf-16') ? text : strictUtf8(bytes, feedPath), feedPath);
      return { ...base, format: kind, items: m.items, warnings: m.warnings };
    }
    case 'csv': {
      const m = parseCsvManifest(decoded.encoding.startsWith('utf-16') ? text : strictUtf8(bytes, feedPath), feedPath);
      const errorItems: FeedItem[] = m.errors.map((e, i) => ({
        source: { file: feedPath, position: m.items.length + i, line: e.line, format: 'csv' },
        captionRaw: '',
        iptc: {},
        image: null,
        error: { code: e.code, message: e.message },
      }));
      return { ...base, format: kind, items: [...m.items, ...errorItems], warnings: m.warnings };
    }
    case 'xml': {
      // parseWireXml refuses unknown XML itself, after a safe parse (a hostile file is reported as refused).
      // Items that are not pictures (text, video, packages) are counted and listed, never dropped without a word.
      // A feed fetched over HTTP reads no local file beside it; one kept in storage only the
      // objects its folder reader lists (wireOptions: src/adapters/feeds/loadStorageFeed.ts).
      const remote = /^https?:\/\//i.test(feedPath);
      const wire = parseWireXml(
        text,
        feedPath,
        wireOptions ?? (remote || isStorageRef(feedPath) ? {} : localWireXmlOptions(feedPath)),
      );
      const names = remote ? [] : wireXmlNames(text, feedPath);
      return {
        ...base,
        format: detectXmlFlavor(text) ?? 'xml',
        items: wire.items,
        warnings: [...(decoded.warning ? [decoded.warning] : []), ...skippedWarnings(feedPath, wire.skipped)],
        skipped: countSkipped(wire.skipped),
        names,
      };
    }
    default:
      throw new InputError(
        'FEED_UNKNOWN_FORMAT',
        `${feedPath}: not a feed photowire reads (expected ${TEXT_FEED_FORMATS})`,
      );
  }
}

function strictUtf8(bytes: Buffer, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError('FEED_MALFORMED', `${file}: the file is not valid UTF-8`);
  }
}

async function readHead(file: string, n: number): Promise<Buffer> {
  const fh = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export function imageItem(file: string, position: number): FeedItem {
  return {
    source: { file, position, format: 'image' },
    captionRaw: '',
    iptc: {},
    image: file,
  };
}

const SKIP_DIRS = new Set(['processed', 'failed', 'node_modules']);

/**
 * Photos over this size are not hashed for their batch id (size and mtime stand in: the item
 * fails IMAGE_TOO_LARGE anyway unless PHOTOWIRE_MAX_FILE_MB is raised past it).
 */
export const HASH_MAX_BYTES = 1 << 30;

const inside = (p: string, root: string) => p === root || p.startsWith(root + path.sep);

/**
 * A folder feed, read the same by `run`, `ingest`, a folder dropped into a hot folder (and, over
 * storage, a desk upload: loadStorageFeed.ts): every picture below it (by content or extension)
 * and every feed file (NewsML-G2, NITF, manifests: an agency's delivery of one XML per item with
 * its picture beside it), in name order, assembled by src/core/feeds/folderFeed.ts: a picture an
 * item names is that item's (its metadata and the file's own IIM/XMP), never a second bare
 * record; a picture no item names is its own; an item whose picture is absent fails
 * PICTURE_MISSING. Everything else is listed as a warning naming the file and why, never dropped
 * without a word: files that are neither (counted in `skipped.file`), hidden (dot) files and
 * folders, special files (FIFOs, sockets, devices: never opened), the `processed`/`failed` folders
 * of a hot folder, symlinked folders (never entered, so `a -> .` cannot loop). A symlink whose
 * real path leaves the folder is an item failed with PATH_OUTSIDE_FEED, its bytes never read. A
 * folder that yields nothing is FEED_EMPTY. The walk is bounded (walkFolder).
 */
async function loadFolder(root: string, maxFeedBytes: number, signal?: AbortSignal): Promise<LoadedFeed> {
  const parts: FolderPart[] = [];
  const warnings: string[] = [];
  const unread: string[] = [];
  const realRoot = await fs.realpath(root);
  const skip = (file: string, why: string) => {
    warnings.push(`${file}: skipped, ${why}`);
    unread.push(file);
  };
  const refused = (file: string, code: string, message: string) =>
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
  /** A regular file inside the folder: a picture, a feed (its items and the pictures it names), or skipped with the reason. */
  const readFile = async (file: string, size: number) => {
    if (hasImageExtension(file) || sniffImage(await readHead(file, 16))) {
      parts.push({ file, picture: true, items: [imageItem(file, 0)] });
      return;
    }
    if (size > maxFeedBytes) {
      // A video or archive beside the photos: never read, named and counted like any other file.
      skip(
        file,
        `not a picture, and at ${(size / 1048576).toFixed(1)} MB over the feed cap (PHOTOWIRE_MAX_FEED_MB): not read`,
      );
      return;
    }
    try {
      const feed = parseFeedBytes(await fs.readFile(file), file);
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
      // A README or checksum file beside the photos is not a failure: it is named, and counted in the summary.
      if (err.code === 'FEED_UNKNOWN_FORMAT') skip(file, 'not a picture or a feed photowire reads');
      else refused(file, err.code, err.message);
    }
  };
  await walkFolder(
    root,
    async (e) => {
      if (e.name.startsWith('.')) {
        warnings.push(
          `${e.abs}: skipped, a hidden ${e.kind === 'dir' ? 'folder' : 'file'} (its name starts with a dot)`,
        );
        return false;
      }
      if (e.kind === 'dir') {
        if (!SKIP_DIRS.has(e.name)) return true;
        warnings.push(`${e.abs}: skipped, a folder named ${e.name} is never read as part of a feed`);
        return false;
      }
      if (e.kind === 'other') {
        skip(e.abs, `not a regular file (${e.special})`);
        return;
      }
      if (isTempNameInsideFolder(e.name)) {
        warnings.push(`${e.abs}: skipped, a temporary name (a file still being written is never an item)`);
        return;
      }
      if (e.kind === 'symlink') {
        const real = await fs.realpath(e.abs).catch(() => null);
        const target = await fs.readlink(e.abs).catch(() => '?');
        if (real === null) {
          skip(e.abs, `a symlink to ${target}, which does not exist`);
          return;
        }
        const st = await fs.stat(real);
        if (st.isDirectory()) {
          skip(e.abs, `a symlinked folder (to ${target}) is never followed`);
          return;
        }
        if (!inside(real, realRoot)) {
          const error = {
            code: 'PATH_OUTSIDE_FEED',
            message: `${e.abs} is a symlink to ${real}, outside the feed folder ${realRoot}: not read`,
          };
          parts.push({
            file: e.abs,
            picture: hasImageExtension(e.name),
            items: [{ ...imageItem(e.abs, 0), image: null, error }],
          });
          return;
        }
        if (!st.isFile()) {
          skip(e.abs, 'a symlink to something that is not a regular file');
          return;
        }
        await readFile(e.abs, st.size);
        return;
      }
      const st = await fs.stat(e.abs).catch(() => null);
      if (st) await readFile(e.abs, st.size);
    },
    { signal },
  );
  // Folder identity: each file's relative path and the SHA-256 of its bytes (src/core/ids.ts);
  // a folder of photos only keeps the id it had before feeds inside were read.
  const entries: Array<{ rel: string; sha256: string | null; size: number; mtimeMs: number }> = [];
  for (const f of parts) {
    const failed = f.items.length === 1 && f.items[0]!.error?.code === 'PATH_OUTSIDE_FEED';
    // A refused link is described by itself (lstat), never by what it points to.
    const st = await (failed ? fs.lstat(f.file) : fs.stat(f.file)).catch(() => null);
    const hashable = !failed && st !== null && st.size <= HASH_MAX_BYTES;
    entries.push({
      rel: path.relative(root, f.file),
      sha256: hashable ? await sha256File(f.file, signal) : null,
      size: st?.size ?? -1,
      mtimeMs: st?.mtimeMs ?? -1,
    });
  }
  const listed = new Set(parts.map((p) => p.file));
  const folder = assembleFolderFeed(parts, (p) => listed.has(p) || existsSync(p));
  if (folder.items.length === 0) {
    const shown = unread.slice(0, 5).map((f) => path.relative(root, f));
    throw new InputError(
      'FEED_EMPTY',
      unread.length
        ? `${root}: no picture and no feed photowire reads; ${unread.length} file(s) skipped (${shown.join(', ')}${unread.length > shown.length ? ', ...' : ''})`
        : `${root}: the folder holds no picture and no feed${warnings.length ? ` (${warnings.length} entries skipped: see the names above)` : ''}`,
    );
  }
  if (folder.paired)
    warnings.push(`${root}: ${folder.paired} picture(s) taken with the item that names them, not on their own`);
  const skipped = { ...folder.skipped, ...(unread.length ? { file: unread.length } : {}) };
  const hasFeeds = parts.some((p) => !p.picture);
  return {
    batchId: batchIdFor(root, folderDigest(entries)),
    feedPath: root,
    root,
    format: hasFeeds ? 'folder-bundle' : 'image-folder',
    items: folder.items,
    article: folder.article,
    warnings,
    ...(Object.keys(skipped).length ? { skipped } : {}),
  };
}
