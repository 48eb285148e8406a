import type { IptcFields } from '../../schemas/feedItem';
import { FIELD_ORDER, LIST_FIELDS, type IptcFieldName } from './fieldTables';
import type { IimBlock } from './iim';
import { matchDefaultText, type DefaultTexts } from './defaultTexts';
import { exifDateProblem } from './dates';

/**
 * How the IPTC digest a file stores (Photoshop IRB 0x0425, the MD5 of the IIM block as the
 * last MWG-aware writer left it) compares with the IIM it holds now:
 *   no-iim     no IIM block at all;
 *   no-digest  IIM but no stored digest (most wire systems);
 *   current    the digest matches: IIM and XMP were written together, XMP is authoritative;
 *   stale      it does not: a legacy tool edited the IIM after the XMP was written.
 */
export type DigestState = 'no-iim' | 'no-digest' | 'current' | 'stale';

export interface MergeOptions {
  digest?: DigestState;
  /** EXIF ImageDescription / Artist / Copyright / DateTimeOriginal, as caption / byline / copyright / dateCreated. */
  exif?: IptcFields;
  /**
   * What another XMP property says for a field whose value came from a first one: photoshop:City,
   * State and Country when Iptc4xmpExt:LocationShown gave the value (MWG reads that first). An IIM
   * value cut at its cap is completed from either.
   */
  xmpAlternates?: IptcFields;
  /** When the file was sent (IIM 1:70/1:80, else when it arrived), ISO 8601: an EXIF date after it is impossible. */
  transmittedAt?: string;
  /** Camera and software defaults to drop (defaultTexts.ts); none are dropped without them. */
  defaultTexts?: DefaultTexts;
  /** Where to say what was dropped or overridden. */
  warnings?: string[];
}

const EXIF_NAMES: Partial<Record<IptcFieldName, string>> = {
  caption: 'ImageDescription',
  byline: 'Artist',
  copyright: 'Copyright',
  dateCreated: 'DateTimeOriginal',
};

/** A value quoted in a warning is cut here: the warning names it, the record keeps it. */
const QUOTE_CHARS = 200;

/**
 * Which of EXIF, IIM and XMP wins when a photo carries several. A wire photo's IPTC is the
 * agency's transmission; EXIF is what the camera, or an earlier edit, left behind (PA's pa.jpg
 * carries the 2014 match caption in EXIF ImageDescription and the 2015 re-issue caption in
 * IPTC). So, as the Guardian's Grid reads description and by-line (XMP, then IPTC, then EXIF):
 *
 *   1. text fields: IPTC first, between IIM and XMP as the digest decides (2-4); a non-blank
 *      EXIF ImageDescription, Artist or Copyright only fills a field IPTC leaves empty, with a
 *      warning when it says something else (MWG puts EXIF first: the rule deliberately differs);
 *   2. digest `current` (or no IIM): XMP wins, IIM fills the fields XMP lacks (MWG);
 *   3. digest `stale`: IIM wins, except a value IIM cut at its dataset's maximum size that XMP
 *      continues, from either of its properties for the field (MWG RecoverTruncatedIPTC), and a
 *      keyword list IIM holds joined in one cut string that XMP holds whole; XMP fills the rest;
 *   4. `no-digest`, our own rule (MWG would take XMP): the same as `stale`. Wire systems edit
 *      IIM and often leave a stale XMP behind without ever writing a digest: cp.jpg's IIM says
 *      Source "The Canadian Press" and a 2024 date while its XMP still says "CP" and 2020.
 *   5. the date: EXIF DateTimeOriginal first (the shutter time, as MWG), unless it is after the
 *      transmission (a camera clock set wrong); exifFields.ts already refused a zeroed one or one
 *      before 1900. Then IPTC as in 2-4.
 * A value that is a camera or software default (defaultTexts.ts) is dropped from whichever
 * source gave it, with a warning, and the next source fills in. Keywords joined in one item by
 * a system that flattens lists ("a; b", "a, b") are split. Lists are not merged item by item: a
 * list comes whole from one side.
 */
export function mergeIimXmp(
  iim: Pick<IimBlock, 'iptc' | 'atLimit'> | undefined,
  xmp: IptcFields,
  options: MergeOptions = {},
): IptcFields {
  const digest = options.digest ?? 'no-digest';
  const warnings = options.warnings;
  const texts = options.defaultTexts;
  const clean = (source: string, fields: IptcFields | undefined): IptcFields =>
    texts && fields ? dropDefaults(source, fields, texts, warnings) : (fields ?? {});
  const iimFields = iim ? { iptc: clean('IIM', iim.iptc), atLimit: iim.atLimit } : undefined;
  const xmpFields = clean('XMP', xmp);
  const alternates = clean('XMP', options.xmpAlternates);
  const exif = clean('EXIF', options.exif);
  const out: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) {
    const iptcValue =
      digest === 'current' || digest === 'no-iim'
        ? (xmpFields[field] ?? iimFields?.iptc[field])
        : iimFirst(field, iimFields, xmpFields, alternates);
    const fromExif = EXIF_NAMES[field] !== undefined ? exif[field] : undefined;
    let value: unknown = iptcValue;
    if (field === 'dateCreated' && typeof fromExif === 'string') {
      const late = options.transmittedAt !== undefined ? exifDateProblem(fromExif, options.transmittedAt) : undefined;
      if (late)
        warnings?.push(
          `EXIF DateTimeOriginal ${fromExif} ${late}; ${iptcValue !== undefined ? `the IPTC date ${String(iptcValue)} is used` : 'no date is kept'}`,
        );
      else {
        if (iptcValue !== undefined && iptcValue !== fromExif) {
          warnings?.push(
            `EXIF DateTimeOriginal differs from the IPTC date; the EXIF shutter time is used; IPTC said ${quote(iptcValue)}`,
          );
        }
        value = fromExif;
      }
    } else if (fromExif !== undefined) {
      if (iptcValue === undefined) value = fromExif;
      else if (JSON.stringify(iptcValue) !== JSON.stringify(fromExif)) {
        warnings?.push(
          `EXIF ${EXIF_NAMES[field]} differs from the IPTC ${field}; the IPTC ${field} is used (the agency's transmission); EXIF said ${quote(fromExif)}`,
        );
      }
    }
    if (field === 'keywords' && Array.isArray(value)) value = splitJoinedKeywords(value as string[]);
    if (value !== undefined) out[field] = value;
  }
  return out as IptcFields;
}

function quote(v: unknown): string {
  const s = JSON.stringify(v);
  return s.length > QUOTE_CHARS ? `${s.slice(0, QUOTE_CHARS)}…` : s;
}

/** The fields without the camera and software defaults, each dropped with a warning. */
function dropDefaults(
  source: string,
  fields: IptcFields,
  texts: DefaultTexts,
  warnings: string[] | undefined,
): IptcFields {
  let out: Record<string, unknown> | undefined;
  for (const [field, value] of Object.entries(fields) as Array<[IptcFieldName, unknown]>) {
    if (Array.isArray(value)) {
      const kept = (value as string[]).filter((v) => {
        const m = matchDefaultText(texts, field, v);
        if (m)
          warnings?.push(`${source} ${field} ${quote(v)} is a camera or software default (rule ${m.rule}); dropped`);
        return !m;
      });
      if (kept.length !== value.length) {
        out ??= { ...fields };
        if (kept.length > 0) out[field] = kept;
        else delete out[field];
      }
    } else if (typeof value === 'string') {
      const m = matchDefaultText(texts, field, value);
      if (m) {
        warnings?.push(`${source} ${field} ${quote(value)} is a camera or software default (rule ${m.rule}); dropped`);
        out ??= { ...fields };
        delete out[field];
      }
    }
  }
  return (out ?? fields) as IptcFields;
}

function iimFirst(
  field: IptcFieldName,
  iim: Pick<IimBlock, 'iptc' | 'atLimit'> | undefined,
  xmp: IptcFields,
  alternates: IptcFields,
): unknown {
  const fromIim = iim?.iptc[field];
  const fromXmp = xmp[field];
  if (fromIim === undefined) return fromXmp;
  if (LIST_FIELDS.has(field) && Array.isArray(fromIim)) {
    const xs = Array.isArray(fromXmp) ? fromXmp : [];
    const anyCut = fromIim.some((_, i) => iim?.atLimit.has(`${field}#${i}`));
    // One IIM item holding the list joined and cut at 64 bytes, XMP holding the list whole.
    if (anyCut && xs.length > fromIim.length && isJoinedListCutOf(fromIim, xs)) return xs;
    return fromIim.map((v, i) =>
      iim?.atLimit.has(`${field}#${i}`) && isCompletionOf(v, xs[i]) ? (xs[i] as string) : v,
    );
  }
  if (typeof fromIim === 'string' && iim?.atLimit.has(field)) {
    for (const candidate of [fromXmp, alternates[field]])
      if (typeof candidate === 'string' && isCompletionOf(fromIim, candidate)) return candidate;
  }
  return fromIim;
}

/** Is `full` the whole of which `cut` is the start? A UTF-8 cut mid-character leaves a U+FFFD at the end. */
function isCompletionOf(cut: string, full: string | undefined): boolean {
  if (full === undefined || full === cut) return false;
  const prefix = cut.replace(/\ufffd+$/, '');
  return full.length > prefix.length && full.startsWith(prefix);
}

const LIST_JOINERS = ['; ', ';', ', ', ',', ' '];

/** Do the IIM items, joined as a list-flattening system joins them, start the XMP list joined the same way? */
function isJoinedListCutOf(cutItems: readonly string[], full: readonly string[]): boolean {
  return LIST_JOINERS.some((sep) => isCompletionOf(cutItems.join(sep), full.join(sep)));
}

/**
 * Keywords a system stored joined in one item ("cricket; england", "Paris, France"): split on
 * ";" and on "," followed by a blank, each part trimmed, empty parts and repeats left out.
 */
export function splitJoinedKeywords(keywords: readonly string[]): string[] {
  if (!keywords.some((k) => /;|,\s/.test(k))) return [...keywords];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const k of keywords) {
    for (const part of k.split(/\s*;\s*|,\s+/)) {
      const p = part.trim();
      if (p !== '' && !seen.has(p)) {
        seen.add(p);
        out.push(p);
      }
    }
  }
  return out;
}
