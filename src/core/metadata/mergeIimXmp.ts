import type { IptcFields } from '../../schemas/feedItem';
import { FIELD_ORDER, LIST_FIELDS, type IptcFieldName } from './fieldTables';
import type { IimBlock } from './iim';

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
  /** Where to say that EXIF overrode a different IPTC value. */
  warnings?: string[];
}

const EXIF_FIRST: ReadonlySet<IptcFieldName> = new Set<IptcFieldName>(['caption', 'byline', 'copyright', 'dateCreated']);

/**
 * Which of EXIF, IIM and XMP wins when a photo carries several: the Metadata Working Group's
 * rule, as `exiftool -use MWG` reads it (Image::ExifTool::MWG), with one rule of our own for
 * files that store no digest.
 *
 *   1. caption, by-line, copyright and date: a non-blank EXIF ImageDescription, Artist,
 *      Copyright or DateTimeOriginal comes first (MWG), with a warning when it differs
 *      from what IPTC says;
 *   2. digest `current` (or no IIM): XMP wins, IIM fills the fields XMP lacks (MWG);
 *   3. digest `stale`: IIM wins, except a value IIM cut at its dataset's maximum size that
 *      XMP continues (MWG RecoverTruncatedIPTC); XMP fills the fields IIM lacks;
 *   4. `no-digest`, our own rule (MWG would take XMP): the same as `stale`. Wire systems edit
 *      IIM and often leave a stale XMP behind without ever writing a digest: cp.jpg's IIM says
 *      Source "The Canadian Press" and a 2024 date while its XMP still says "CP" and 2020.
 * Lists are not merged item by item: a list comes whole from one side. The same rule is
 * applied to every field, including those MWG defines no composite for (headline, credit,
 * source, transmission reference).
 */
export function mergeIimXmp(iim: Pick<IimBlock, 'iptc' | 'atLimit'> | undefined, xmp: IptcFields, options: MergeOptions = {}): IptcFields {
  const digest = options.digest ?? 'no-digest';
  const exif = options.exif ?? {};
  const out: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) {
    const iptcValue = digest === 'current' ? (xmp[field] ?? iim?.iptc[field]) : iimFirst(field, iim, xmp);
    const fromExif = EXIF_FIRST.has(field) ? exif[field] : undefined;
    if (fromExif !== undefined) {
      if (iptcValue !== undefined && JSON.stringify(iptcValue) !== JSON.stringify(fromExif)) {
        options.warnings?.push(`EXIF ${EXIF_NAMES[field]} differs from the IPTC ${field}; EXIF is used (MWG); IPTC said ${JSON.stringify(iptcValue)}`);
      }
      out[field] = fromExif;
    } else if (iptcValue !== undefined) out[field] = iptcValue;
  }
  return out as IptcFields;
}

const EXIF_NAMES: Partial<Record<IptcFieldName, string>> = {
  caption: 'ImageDescription',
  byline: 'Artist',
  copyright: 'Copyright',
  dateCreated: 'DateTimeOriginal',
};

function iimFirst(field: IptcFieldName, iim: Pick<IimBlock, 'iptc' | 'atLimit'> | undefined, xmp: IptcFields): unknown {
  const fromIim = iim?.iptc[field];
  const fromXmp = xmp[field];
  if (fromIim === undefined) return fromXmp;
  if (LIST_FIELDS.has(field) && Array.isArray(fromIim)) {
    const xs = Array.isArray(fromXmp) ? fromXmp : [];
    return fromIim.map((v, i) => (iim?.atLimit.has(`${field}#${i}`) && isCompletionOf(v, xs[i]) ? (xs[i] as string) : v));
  }
  if (typeof fromIim === 'string' && typeof fromXmp === 'string' && iim?.atLimit.has(field) && isCompletionOf(fromIim, fromXmp)) return fromXmp;
  return fromIim;
}

/** Is `full` the whole of which `cut` is the start? A UTF-8 cut mid-character leaves a U+FFFD at the end. */
function isCompletionOf(cut: string, full: string | undefined): boolean {
  if (full === undefined || full === cut) return false;
  const prefix = cut.replace(/\ufffd+$/, '');
  return full.length > prefix.length && full.startsWith(prefix);
}
