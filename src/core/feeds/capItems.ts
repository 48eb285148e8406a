import type { FeedItem, IptcFields } from '../../schemas/feedItem';
import type { WarningCode } from '../errors';
import { FIELD_CAPS, MAX_BYLINES, capText, type CappedField } from '../records/fieldCaps';

/**
 * What a feed (or a photo's embedded metadata) may store of each field. One manifest line with a
 * 30 MB caption (under the 64 MB feed cap) took a worker to 2.5 GB RSS, made a 128 MB records hash
 * in Redis, a 120 MB records.ndjson line and a 125 MB API page of one record. Every text field is
 * cut to its cap where the feed is read, with a FIELD_CAPPED warning naming the file, the line or
 * item, the field, its length and the cap; the feed file itself is kept as it came. The caption and
 * credit caps are the parsers' (src/core/records/fieldCaps.ts); docs/RECORDS.md "Input limits".
 */
export const STORED_CAPS = {
  /** Any other text field (city, country, writer, object name, ids...). */
  otherText: 1_000,
  /** Entries of a keyword list, and the length of each. */
  keywords: 200,
  keywordChars: 300,
  /** Wire rights texts (NewsML-G2 usage terms, NITF rights), how many and how long each. */
  wireTexts: 50,
  wireTextChars: FIELD_CAPS.specialInstructions,
  /** Gallery article text (batch-level, shown on the batch page). */
  article: 100_000,
} as const;

/**
 * The longest line of a line-based feed (an NDJSON line, a CSV record) that is parsed at all: a
 * longer one is not decoded, its item fails with FEED_LINE_TOO_LONG. Real wire items are a few KB; 4 MB leaves room for a 1,000,000-character caption of two-byte letters (test/integration/attacks.longFields.test.ts).
 * A 60 MB one-line manifest took 31 s and 3.5 GB before.
 */
export const MAX_FEED_LINE_BYTES = 4 * 1024 * 1024;

const FIELD_CAPPED: WarningCode = 'FIELD_CAPPED';

type Where = { file: string; line?: number; position: number };

function label(w: Where): string {
  return `${w.file}${w.line ? `:${w.line}` : ''}: item ${w.position + 1}`;
}

/** A capped field's warning: code first, then file, line, item, field, length, cap. */
function cappedWarning(w: Where, field: string, length: number, cap: number, unit = 'characters'): string {
  return `${FIELD_CAPPED}: ${label(w)}: ${field} is ${length} ${unit}, over the cap of ${cap}; stored cut to the cap`;
}

const IPTC_CAPPED: Partial<Record<keyof IptcFields, CappedField>> = {
  caption: 'caption',
  headline: 'headline',
  credit: 'credit',
  source: 'source',
  copyright: 'copyright',
  specialInstructions: 'specialInstructions',
};

function capString(value: string, field: string, cap: CappedField | number, where: Where, warnings: string[]): string {
  const limit = typeof cap === 'number' ? cap : FIELD_CAPS[cap];
  if (value.length <= limit) return value;
  warnings.push(cappedWarning(where, field, value.length, limit));
  return typeof cap === 'number' ? cutAt(value, cap) : capText(cap, value);
}

/** `s` cut to `n` code units without splitting a surrogate pair. */
function cutAt(s: string, n: number): string {
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

function capList(
  list: string[],
  field: string,
  maxEntries: number,
  maxChars: number,
  where: Where,
  warnings: string[],
): string[] {
  if (list.length > maxEntries) warnings.push(cappedWarning(where, field, list.length, maxEntries, 'entries'));
  let long = 0;
  const out = list.slice(0, maxEntries).map((v) => {
    if (v.length <= maxChars) return v;
    long++;
    return cutAt(v, maxChars);
  });
  if (long > 0)
    warnings.push(
      `${FIELD_CAPPED}: ${label(where)}: ${long} ${field} entries are over the cap of ${maxChars} characters; stored cut to the cap`,
    );
  return long > 0 || list.length > maxEntries ? out : list;
}

/** IPTC fields cut to what is stored (the same object when nothing is over). */
export function capIptc(iptc: IptcFields, where: Where, warnings: string[], prefix = 'iptc.'): IptcFields {
  let out: IptcFields | undefined;
  const set = <K extends keyof IptcFields>(k: K, v: IptcFields[K]) => {
    if (v === iptc[k]) return;
    out ??= { ...iptc };
    out[k] = v;
  };
  for (const [k, v] of Object.entries(iptc) as Array<[keyof IptcFields, unknown]>) {
    if (typeof v === 'string')
      set(k, capString(v, `${prefix}${k}`, IPTC_CAPPED[k] ?? STORED_CAPS.otherText, where, warnings) as never);
  }
  if (iptc.byline)
    set('byline', capList(iptc.byline, `${prefix}byline`, MAX_BYLINES, FIELD_CAPS.byline, where, warnings));
  if (iptc.bylineTitle)
    set(
      'bylineTitle',
      capList(iptc.bylineTitle, `${prefix}bylineTitle`, MAX_BYLINES, FIELD_CAPS.byline, where, warnings),
    );
  if (iptc.keywords)
    set(
      'keywords',
      capList(iptc.keywords, `${prefix}keywords`, STORED_CAPS.keywords, STORED_CAPS.keywordChars, where, warnings),
    );
  return out ?? iptc;
}

/**
 * A feed item as it may be stored: caption, title, ids, IPTC and wire texts cut to their caps, one
 * warning per field cut. Items within their caps are returned as they are.
 */
export function capFeedItem(item: FeedItem, warnings: string[]): FeedItem {
  const where: Where = { file: item.source.file, line: item.source.line, position: item.source.position };
  const before = warnings.length;
  const captionRaw = capString(item.captionRaw, 'caption', 'caption', where, warnings);
  const title = item.title === undefined ? undefined : capString(item.title, 'title', 'title', where, warnings);
  const agencyId =
    item.agencyId === undefined ? undefined : capString(item.agencyId, 'id', STORED_CAPS.otherText, where, warnings);
  const agencyVersion =
    item.agencyVersion === undefined
      ? undefined
      : capString(item.agencyVersion, 'version', STORED_CAPS.otherText, where, warnings);
  // iptc.caption is the caption as the feed gave it (the manifests set both): capped once, its warning already given
  const iptcWarnings: string[] = [];
  const iptc = capIptc(item.iptc, where, iptcWarnings);
  warnings.push(
    ...iptcWarnings.filter((w) => !(w.includes(': iptc.caption is ') && item.iptc.caption === item.captionRaw)),
  );
  let wire = item.wire;
  if (wire?.texts) {
    const texts = wire.texts;
    if (texts.length > STORED_CAPS.wireTexts)
      warnings.push(cappedWarning(where, 'wire rights texts', texts.length, STORED_CAPS.wireTexts, 'entries'));
    const kept = texts
      .slice(0, STORED_CAPS.wireTexts)
      .map((t) =>
        t.text.length > STORED_CAPS.wireTextChars
          ? { ...t, text: capString(t.text, `wire text (${t.source})`, STORED_CAPS.wireTextChars, where, warnings) }
          : t,
      );
    wire = { ...wire, texts: kept };
  }
  if (warnings.length === before) return item;
  return { ...item, captionRaw, title, agencyId, agencyVersion, iptc, ...(wire ? { wire } : {}) };
}

/** Every item of a parsed feed capped; the feed's warnings get one line per field cut. */
export function capFeedItems(items: FeedItem[], warnings: string[]): FeedItem[] {
  return items.map((item) => capFeedItem(item, warnings));
}

/** The gallery article, cut to its cap. */
export function capArticle(article: string | null, file: string, warnings: string[]): string | null {
  if (article === null || article.length <= STORED_CAPS.article) return article;
  warnings.push(
    `${FIELD_CAPPED}: ${file}: the article text is ${article.length} characters, over the cap of ${STORED_CAPS.article}; stored cut to the cap`,
  );
  return cutAt(article, STORED_CAPS.article);
}
