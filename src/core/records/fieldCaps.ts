import type { IptcFields } from '../../schemas/feedItem';

/**
 * Longest text of each metadata field that is parsed and normalized (captions, credits, rights),
 * in characters (UTF-16 code units). Longer values are cut for parsing only, with a warning: the
 * record keeps the value as received in `captionRaw` and `iptc` (attack 4).
 *
 * IIM's own limits are the guide, with room, because XMP has none and real wire metadata runs
 * past IIM's: Caption-Abstract is 2,000 bytes in IIM, yet Getty and AP captions with editors'
 * notes run to 4,000 characters in XMP; Credit and Source are 32 bytes in IIM, yet XMP credit
 * lines such as "Mandatory Credit: Photo by X/NurPhoto/Shutterstock (16507315bs)" reach 200.
 * Documented in docs/RECORDS.md ("Field caps").
 */
export const FIELD_CAPS = {
  caption: 10_000, // IIM 2:120: 2,000 bytes
  headline: 1_000, // IIM 2:105: 256 bytes
  title: 1_000, // the feed's title line; IIM 2:05 Object Name is 64 bytes
  byline: 300, // IIM 2:80: 32 bytes, each of them
  credit: 500, // IIM 2:110: 32 bytes
  source: 500, // IIM 2:115: 32 bytes
  copyright: 1_000, // IIM 2:116: 128 bytes
  specialInstructions: 2_000, // IIM 2:40: 256 bytes
} as const;
export type CappedField = keyof typeof FIELD_CAPS;

/** How many By-line entries are read; IIM repeats 2:80, wires send one to three. */
export const MAX_BYLINES = 20;

/** Of a caption over its cap, the end kept with its start: where the credit tail is. */
const CAPTION_END_KEPT = 1_000;

export interface FieldCapWarning {
  code: 'FIELD_CAPPED';
  file: string;
  item: string;
  field: string;
  length: number;
  cap: number;
  message: string;
}

/** `s` cut to at most `n` code units without splitting a surrogate pair. */
function head(s: string, n: number): string {
  let end = Math.min(n, s.length);
  const code = s.charCodeAt(end - 1);
  if (end < s.length && code >= 0xd800 && code <= 0xdbff) end--;
  return s.slice(0, end);
}

function tail(s: string, n: number): string {
  let start = Math.max(0, s.length - n);
  const code = s.charCodeAt(start);
  if (start > 0 && code >= 0xdc00 && code <= 0xdfff) start++;
  return s.slice(start);
}

/**
 * A caption over the cap keeps its start and its last 1,000 characters, joined by " … ", so
 * the credit tail at its end is still read; any other field keeps its start.
 */
export function capText(field: CappedField, value: string): string {
  const cap = FIELD_CAPS[field];
  if (value.length <= cap) return value;
  if (field === 'caption') return `${head(value, cap - CAPTION_END_KEPT - 3)} … ${tail(value, CAPTION_END_KEPT)}`;
  return head(value, cap);
}

export interface CappedInput {
  captionRaw: string;
  title: string | undefined;
  iptc: IptcFields;
  warnings: FieldCapWarning[];
}

/**
 * The caption, title and IPTC fields as the parsers should see them: each over its cap cut,
 * with a warning naming the file, the item, the field, its length and the cap. Values within
 * their caps are returned as they are (the same strings), so nothing changes for real metadata.
 */
export function capFields(
  input: { captionRaw: string; title?: string; iptc: IptcFields },
  where: { file: string; item: string },
): CappedInput {
  const warnings: FieldCapWarning[] = [];
  const cap = (field: CappedField, value: string, label: string = field): string => {
    const out = capText(field, value);
    if (out !== value) {
      const limit = FIELD_CAPS[field];
      warnings.push({
        code: 'FIELD_CAPPED',
        file: where.file,
        item: where.item,
        field: label,
        length: value.length,
        cap: limit,
        message: `${where.file}, item ${where.item}: ${label} is ${value.length} characters, over the cap of ${limit}; ${
          field === 'caption'
            ? `only its first ${limit - CAPTION_END_KEPT - 3} and last ${CAPTION_END_KEPT}`
            : `only the first ${limit}`
        } are parsed, the whole value is kept as received`,
      });
    }
    return out;
  };
  const iptc: IptcFields = { ...input.iptc };
  // iptc.caption is read only as the caption when the feed gives none: capped once, as captionRaw.
  for (const field of ['headline', 'credit', 'source', 'copyright', 'specialInstructions'] as const) {
    const v = iptc[field];
    if (v !== undefined) iptc[field] = cap(field, v, `iptc.${field}`);
  }
  if (iptc.byline) {
    const all = iptc.byline;
    if (all.length > MAX_BYLINES) {
      warnings.push({
        code: 'FIELD_CAPPED',
        file: where.file,
        item: where.item,
        field: 'iptc.byline',
        length: all.length,
        cap: MAX_BYLINES,
        message: `${where.file}, item ${where.item}: iptc.byline has ${all.length} entries, over the cap of ${MAX_BYLINES}; only the first ${MAX_BYLINES} are read, all are kept as received`,
      });
    }
    iptc.byline = all.slice(0, MAX_BYLINES).map((b, i) => cap('byline', b, `iptc.byline[${i}]`));
  }
  return {
    captionRaw: cap('caption', input.captionRaw, 'caption'),
    title: input.title === undefined ? undefined : cap('title', input.title),
    iptc,
    warnings,
  };
}
