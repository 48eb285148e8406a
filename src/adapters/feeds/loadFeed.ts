import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InputError, isInputError } from '../../core/errors';
import { parseGalleryText, looksLikeGallery } from '../../core/feeds/galleryText';
import { parseJsonManifest, parseNdjsonManifest } from '../../core/feeds/manifest';
import { detectTextFeed, hasImageExtension, sniffImage } from '../../core/feeds/sniff';
import { parseCsvManifest } from '../../core/feeds/csvManifest';
import { detectXmlFlavor } from '../../core/feeds/xml/detectXmlFlavor';
import { parseWireXml } from '../../core/feeds/xml/parseWireXml';
import { batchIdFor } from '../../core/ids';
import type { FeedItem } from '../../schemas/feedItem';

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
}

const TEXT_FEED_FORMATS = 'a JPEG (or PNG/TIFF/WebP) with IPTC/XMP, a folder of them, an NDJSON/JSON/CSV manifest, NewsML-G2 or NITF XML, or gallery text with "(N of M)" counters';

export async function loadFeed(input: string, maxFeedBytes: number): Promise<LoadedFeed> {
  const feedPath = path.resolve(input);
  let st;
  try {
    st = await fs.stat(feedPath);
  } catch (err) {
    throw new InputError('FEED_UNREADABLE', `${feedPath}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (err as Error).message}`);
  }
  if (st.isDirectory()) return loadFolder(feedPath);
  if (!st.isFile()) throw new InputError('FEED_UNREADABLE', `${feedPath}: not a file or folder`);
  if (st.size > maxFeedBytes && !hasImageExtension(feedPath)) {
    throw new InputError('FEED_TOO_LARGE', `${feedPath}: ${(st.size / 1048576).toFixed(1)} MB is over the feed cap (PHOTOWIRE_MAX_FEED_MB)`);
  }

  // A single photo is a feed of one; its bytes are hashed by the item worker, so the batch id uses size and mtime.
  const singlePhoto = (): LoadedFeed => ({
    batchId: batchIdFor(feedPath, `file:${st.size}:${st.mtimeMs}`),
    feedPath,
    root: path.dirname(feedPath),
    format: 'image',
    items: [imageItem(feedPath, 0)],
    article: null,
    warnings: [],
  });
  const head = await readHead(feedPath, 16);
  if (sniffImage(head) || (hasImageExtension(feedPath) && st.size > maxFeedBytes)) return singlePhoto();

  const bytes = await fs.readFile(feedPath);
  const digest = createHash('sha256').update(bytes).digest('hex');
  const batchId = batchIdFor(feedPath, digest);
  try {
    return { batchId, feedPath, root: path.dirname(feedPath), ...parseFeedBytes(bytes, feedPath) };
  } catch (err) {
    // An empty or broken `photo.jpg` given on its own (an HTML error page saved under the photo's
    // name, say) is a photo that failed, not a mystery feed: its item says why (IMAGE_CORRUPT
    // "the file is empty", IMAGE_UNSUPPORTED "not an image format").
    if (isInputError(err) && (err.code === 'FEED_UNKNOWN_FORMAT' || err.code === 'FEED_MALFORMED') && hasImageExtension(feedPath)) return singlePhoto();
    throw err;
  }
}

export type ParsedFeed = Pick<LoadedFeed, 'format' | 'items' | 'article' | 'warnings'>;

/**
 * Parse the bytes of a text feed (not a photo). `feedPath` names the feed in messages and is what
 * relative image references resolve against: a file path, or the URL of a feed fetched over HTTP.
 */
export function parseFeedBytes(bytes: Buffer, feedPath: string): ParsedFeed {
  const base = { article: null, warnings: [] as string[] };
  const text = bytes.toString('utf8');
  const kind = detectTextFeed(text, feedPath, looksLikeGallery);
  switch (kind) {
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
      const m = parseJsonManifest(strictUtf8(bytes, feedPath), feedPath);
      return { ...base, format: kind, items: m.items, warnings: m.warnings };
    }
    case 'csv': {
      const m = parseCsvManifest(strictUtf8(bytes, feedPath), feedPath);
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
      const items = parseWireXml(text, feedPath);
      return { ...base, format: detectXmlFlavor(text) ?? 'xml', items };
    }
    default:
      throw new InputError('FEED_UNKNOWN_FORMAT', `${feedPath}: not a feed photowire reads (expected ${TEXT_FEED_FORMATS})`);
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

function imageItem(file: string, position: number): FeedItem {
  return {
    source: { file, position, format: 'image' },
    captionRaw: '',
    iptc: {},
    image: file,
  };
}

const SKIP_DIRS = new Set(['processed', 'failed', 'node_modules']);

/**
 * A folder of photos: every image file below it (by content or extension), in name order.
 * Other files are listed as warnings, not silently dropped. Symlinks are not followed here;
 * the item worker refuses any that point outside the folder.
 */
async function loadFolder(root: string): Promise<LoadedFeed> {
  const files: string[] = [];
  const warnings: string[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await walk(full);
      } else if (e.isFile() || e.isSymbolicLink()) {
        if (hasImageExtension(e.name) || (e.isFile() && sniffImage(await readHead(full, 16)))) files.push(full);
        else warnings.push(`${full}: skipped, not an image (a folder feed takes image files only)`);
      }
    }
  }
  await walk(root);
  // Folder identity: names, sizes and mtimes. Hashing every photo here would read each one twice.
  const h = createHash('sha256');
  for (const f of files) {
    const s = await fs.lstat(f);
    h.update(`${path.relative(root, f)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  const batchId = batchIdFor(root, h.digest('hex'));
  if (files.length === 0) warnings.push(`${root}: the folder holds no image files`);
  return {
    batchId,
    feedPath: root,
    root,
    format: 'image-folder',
    items: files.map((f, i) => imageItem(f, i)),
    article: null,
    warnings,
  };
}
