import type { IptcFields } from '../../schemas/feedItem';
import { FIELD_ORDER, LIST_FIELDS } from './fieldTables';
import type { IimBlock } from './iim';

/**
 * Which of IIM and XMP wins when a photo carries both.
 *
 * ExifTool itself reports both and leaves the choice to its caller; its MWG composite tags
 * (`-use MWG`, what ExifTool-based catalogues rely on) take IIM whenever the stored
 * Photoshop IPTCDigest is present and no longer matches the IIM (a legacy tool edited the
 * IIM after the XMP was written), and recover values IIM cut at its maximum length from XMP
 * (Image::ExifTool::MWG::RecoverTruncatedIPTC). When the digest matches, the two are in sync
 * by definition, so taking IIM gives the same text except for those cut values.
 *
 * The one case where MWG would prefer XMP and we do not is a file without any digest. Wire
 * systems edit IIM and often leave a stale XMP behind: cp.jpg's IIM says Source "The
 * Canadian Press" and a 2024 date while its digest-less XMP still says "CP" and 2020.
 * So, field by field:
 *   1. IIM wins when it has the field;
 *   2. except where the IIM value filled its dataset's maximum size and the XMP value is
 *      longer and starts with it: that IIM value was cut, take XMP's (per item for lists),
 *      e.g. Credit "©1985 David Riecks: www.riecks.c" (32 bytes) vs XMP "...riecks.com";
 *   3. XMP fills the fields IIM lacks.
 * Lists are not merged item by item: a list comes whole from one side.
 */
export function mergeIimXmp(iim: Pick<IimBlock, 'iptc' | 'atLimit'> | undefined, xmp: IptcFields): IptcFields {
  const out: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) {
    const fromIim = iim?.iptc[field];
    const fromXmp = xmp[field];
    if (fromIim === undefined) {
      if (fromXmp !== undefined) out[field] = fromXmp;
      continue;
    }
    if (LIST_FIELDS.has(field) && Array.isArray(fromIim)) {
      const xs = Array.isArray(fromXmp) ? fromXmp : [];
      out[field] = fromIim.map((v, i) => (iim?.atLimit.has(`${field}#${i}`) && isCompletionOf(v, xs[i]) ? (xs[i] as string) : v));
      continue;
    }
    if (typeof fromIim === 'string' && typeof fromXmp === 'string' && iim?.atLimit.has(field) && isCompletionOf(fromIim, fromXmp)) {
      out[field] = fromXmp;
      continue;
    }
    out[field] = fromIim;
  }
  return out as IptcFields;
}

/** Is `full` the whole of which `cut` is the start? A UTF-8 cut mid-character leaves a U+FFFD at the end. */
function isCompletionOf(cut: string, full: string | undefined): boolean {
  if (full === undefined || full === cut) return false;
  const prefix = cut.replace(/\ufffd+$/, '');
  return full.length > prefix.length && full.startsWith(prefix);
}
