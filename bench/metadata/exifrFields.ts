import type { IptcFields } from '../../src/schemas/feedItem';

/**
 * exifr's output mapped to photowire's field names, per source, with the date rules ExifTool's
 * mapping (test/fixtures/exiftool/mapExiftool.js) and photowire share: what a swap to exifr would
 * need as its adapter. Text is taken as exifr decodes it (the bench measures that decoding).
 */

export const FIELDS = [
  'headline',
  'caption',
  'byline',
  'credit',
  'source',
  'copyright',
  'city',
  'country',
  'dateCreated',
  'keywords',
  'specialInstructions',
] as const;
export type Field = (typeof FIELDS)[number];

/** The segments the reader compared reads: IFD0/EXIF (for the TIFF container), IPTC and XMP; no revival of dates. */
export const EXIFR_OPTIONS = {
  tiff: true,
  exif: true,
  gps: false,
  interop: false,
  ifd1: false,
  makerNote: false,
  userComment: false,
  iptc: true,
  xmp: true,
  icc: false,
  jfif: false,
  ihdr: false,
  mergeOutput: false,
  multiSegment: true,
  reviveValues: false,
} as const;

type Raw = Record<string, unknown>;

const LIST_FIELDS = new Set<Field>(['byline', 'keywords']);

function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map((x) => text(x) ?? '').join(', ');
  if (typeof v === 'object') {
    const o = v as Raw;
    if ('value' in o) return text(o.value);
    return undefined;
  }
  return String(v);
}

function list(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  return (Array.isArray(v) ? v : [v]).map((x) => text(x) ?? '');
}

/** A lang-alt value: x-default, else the first alternative. */
function langAlt(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    const def = v.find((x) => typeof x === 'object' && x !== null && (x as Raw).lang === 'x-default');
    return text(def ?? v[0]);
  }
  return text(v);
}

function possibleZone(zone: string | undefined): string {
  if (!zone || zone === 'Z') return zone ?? '';
  const m = /^[+-](\d{2}):(\d{2})$/.exec(zone);
  return m && Number(m[1]) <= 14 && ['00', '30', '45'].includes(m[2]) ? zone : '';
}

/** IIM 2:55 `YYYYMMDD` (+ 2:60 `HHMMSS±HHMM`) as ISO 8601, as precise as given. */
function iimDate(date: unknown, time: unknown): string | undefined {
  const d = /^(\d{4})(\d{2})?(\d{2})?$/.exec(String(date ?? '').trim());
  if (!d) return undefined;
  const [, y, mo, day] = d;
  if (mo === undefined || mo === '00') return y;
  if (day === undefined || day === '00') return `${y}-${mo}`;
  const t = /^(\d{2})(\d{2})(\d{2})(\.\d+)?(?:([+-]\d{2})(\d{2}))?$/.exec(String(time ?? '').trim());
  return t
    ? `${y}-${mo}-${day}T${t[1]}:${t[2]}:${t[3]}${t[4] ?? ''}${possibleZone(t[5] ? `${t[5]}:${t[6]}` : undefined)}`
    : `${y}-${mo}-${day}`;
}

/** An XMP date (ISO 8601, as precise as given), with a zone no place uses dropped. */
function xmpDate(v: unknown): string | undefined {
  const s = text(v)?.trim();
  if (!s) return undefined;
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})?)?)?)?$/.exec(s);
  if (!m) return undefined;
  const [, y, mo, day, time, zone] = m;
  if (mo === undefined) return y;
  if (day === undefined) return `${y}-${mo}`;
  return time === undefined ? `${y}-${mo}-${day}` : `${y}-${mo}-${day}T${time}${possibleZone(zone)}`;
}

/** Empty strings and empty list items carry nothing. */
function clean(fields: Partial<Record<Field, string | string[] | undefined>>): IptcFields {
  const kept = FIELDS.map((f) => {
    const v = fields[f];
    return [f, Array.isArray(v) ? v.filter((s) => s !== '') : v] as const;
  }).filter(([, v]) => v !== undefined && v.length > 0);
  return Object.fromEntries(kept) as IptcFields;
}

export function exifrFields(output: unknown): { iim: IptcFields; xmp: IptcFields } {
  const out = (output ?? {}) as Record<string, Raw | undefined>;
  const iptc = out.iptc ?? {};
  const iim = clean({
    headline: text(iptc.Headline),
    caption: text(iptc.Caption),
    byline: list(iptc.Byline),
    credit: text(iptc.Credit),
    source: text(iptc.Source),
    copyright: text(iptc.CopyrightNotice),
    city: text(iptc.City),
    country: text(iptc.Country),
    dateCreated: iimDate(iptc.DateCreated, iptc.TimeCreated),
    keywords: list(iptc.Keywords),
    specialInstructions: text(iptc.SpecialInstructions),
  });
  const dc = out.dc ?? {};
  const ps = out.photoshop ?? {};
  const fields: Partial<Record<Field, string | string[] | undefined>> = {
    headline: text(ps.Headline),
    caption: langAlt(dc.description),
    byline: list(dc.creator),
    credit: text(ps.Credit),
    source: text(ps.Source),
    copyright: langAlt(dc.rights),
    city: text(ps.City),
    country: text(ps.Country),
    dateCreated: xmpDate(ps.DateCreated),
    keywords: list(dc.subject),
    specialInstructions: text(ps.Instructions),
  };
  // MWG (as ExifTool's mapping): Iptc4xmpExt:LocationShown's city and country come before photoshop:*.
  const shown = (out.Iptc4xmpExt ?? {}).LocationShown;
  const shownList = (Array.isArray(shown) ? shown : shown ? [shown] : []) as Raw[];
  for (const [f, key] of [
    ['city', 'City'],
    ['country', 'CountryName'],
  ] as const) {
    const v = shownList.map((s) => text(s[key])).filter((x): x is string => x !== undefined && x !== '');
    if (v.length > 0) fields[f] = v.join(', ');
  }
  for (const f of LIST_FIELDS) if (typeof fields[f] === 'string') fields[f] = [fields[f] as string];
  return { iim, xmp: clean(fields) };
}
