import { z } from 'zod';
import type { FeedItem, IptcFields } from '../../schemas/feedItem';
import { iptcFieldsSchema } from '../../schemas/feedItem';
import { MAX_FEED_LINE_BYTES } from './capItems';
import { resolveImageRef } from './xml/resolveImageRef';
import { InputError } from '../errors';

/**
 * A manifest item: `caption` plus optional `id`, `headline`, `credit`, `image` (relative to the
 * manifest) and any IPTC-named field. Unknown keys are ignored, not fatal: agencies add fields.
 */
const manifestItemSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    version: z.union([z.string(), z.number()]).optional(),
    caption: z.string().optional(),
    description: z.string().optional(),
    title: z.string().optional(),
    image: z.string().nullable().optional(),
    // Tolerate a single string where IPTC allows a list: manifests are hand-written.
    byline: z.union([z.string(), z.array(z.string())]).optional(),
    creator: z.union([z.string(), z.array(z.string())]).optional(),
    keywords: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .passthrough();

const IPTC_TEXT_KEYS = Object.entries(iptcFieldsSchema.shape)
  .filter(([, s]) => !(s.unwrap() instanceof z.ZodArray))
  .map(([k]) => k) as Array<keyof IptcFields>;

export interface ManifestFeed {
  items: FeedItem[];
  warnings: string[];
}

const asList = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

function toItem(raw: unknown, file: string, position: number, line: number | undefined, format: string): FeedItem {
  const base = { source: { file, position, line, format }, captionRaw: '', iptc: {}, image: null } satisfies FeedItem;
  const parsed = manifestItemSchema.safeParse(raw);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; ');
    return {
      ...base,
      error: { code: 'ITEM_INVALID', message: `${file}${line ? `:${line}` : ''}: item ${position + 1}: ${why}` },
    };
  }
  const m = parsed.data as Record<string, unknown> & z.infer<typeof manifestItemSchema>;
  const iptc: IptcFields = {};
  for (const key of IPTC_TEXT_KEYS) {
    const v = m[key];
    if (typeof v === 'string') (iptc as Record<string, unknown>)[key] = v;
  }
  const byline = asList(m.byline) ?? asList(m.creator);
  if (byline) iptc.byline = byline;
  const keywords = asList(m.keywords);
  if (keywords) iptc.keywords = keywords;
  const captionRaw = m.caption ?? m.description ?? '';
  if (captionRaw) iptc.caption = captionRaw;
  const item: FeedItem = {
    ...base,
    agencyId: m.id === undefined ? undefined : String(m.id),
    agencyVersion: m.version === undefined ? undefined : String(m.version),
    captionRaw,
    title: m.title,
    iptc,
  };
  if (m.image) {
    // A path confined to the manifest's folder, or an http(s) URL (also when the manifest came by URL).
    const resolved = resolveImageRef(file, m.image, false, `${file}${line ? `:${line}` : ''}: item ${position + 1}`);
    item.image = resolved.image;
    if (resolved.error) item.error = resolved.error;
  }
  return item;
}

/** Mark later items that reuse an id: both are kept, the later one carries the error. */
function flagDuplicateIds(items: FeedItem[], file: string): void {
  const seen = new Map<string, number>();
  for (const it of items) {
    if (!it.agencyId || it.error) continue;
    const first = seen.get(it.agencyId);
    if (first === undefined) {
      seen.set(it.agencyId, it.source.position);
    } else {
      it.error = {
        code: 'ITEM_DUPLICATE_ID',
        message: `${file}${it.source.line ? `:${it.source.line}` : ''}: id ${JSON.stringify(it.agencyId)} was already used by item ${first + 1}`,
      };
    }
  }
}

/** One JSON object per line. A bad line becomes an item carrying its error; the good lines go on. */
export function parseNdjsonManifest(bytes: Buffer, file: string): ManifestFeed {
  const items: FeedItem[] = [];
  const warnings: string[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  let lineNo = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    lineNo++;
    const chunk = bytes.subarray(start, end);
    start = end + 1;
    const position = items.length;
    const errorItem = (code: string, message: string): FeedItem => ({
      source: { file, position, line: lineNo, format: 'manifest-ndjson' },
      captionRaw: '',
      iptc: {},
      image: null,
      error: { code, message: `${file}:${lineNo}: ${message}` },
    });
    if (chunk.length > MAX_FEED_LINE_BYTES) {
      // never decoded nor parsed: a 60 MB line took 31 s and 3.5 GB on its way to the stores
      items.push(
        errorItem(
          'FEED_LINE_TOO_LONG',
          `the line is ${chunk.length} bytes, over the per-line cap of ${MAX_FEED_LINE_BYTES}; not read`,
        ),
      );
      continue;
    }
    let text: string;
    try {
      text = decoder
        .decode(chunk)
        .replace(/^\uFEFF/, '')
        .trim();
    } catch {
      items.push(errorItem('FEED_MALFORMED', 'the line is not valid UTF-8'));
      continue;
    }
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      items.push(errorItem('FEED_MALFORMED', `not valid JSON (${(err as Error).message})`));
      continue;
    }
    items.push(toItem(value, file, position, lineNo, 'manifest-ndjson'));
  }
  flagDuplicateIds(items, file);
  return { items, warnings };
}

/** A JSON array of items, or an object with an `items` array. */
export function parseJsonManifest(text: string, file: string): ManifestFeed {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new InputError('FEED_MALFORMED', `${file}: not valid JSON (${(err as Error).message})`);
  }
  const list = Array.isArray(value) ? value : (value as { items?: unknown })?.items;
  if (!Array.isArray(list)) {
    throw new InputError(
      'FEED_MALFORMED',
      `${file}: a JSON manifest must be an array of items or an object with an "items" array`,
    );
  }
  const items = list.map((v, i) => toItem(v, file, i, undefined, 'manifest-json'));
  flagDuplicateIds(items, file);
  return { items, warnings: [] };
}
