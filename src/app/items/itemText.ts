import { removedFileMarker, type BoilerplateRules } from '../../core/captions/boilerplate';
import { cleanCaption, type CleanedCaption } from '../../core/captions/cleanCaption';
import { normalizeCredit } from '../../core/credits/normalizeCredit';
import type { CreditRules } from '../../core/credits/rules';
import { capFields, type FieldCapWarning } from '../../core/records/fieldCaps';
import type { Credit } from '../../schemas/credit';
import type { FeedItem, IptcFields } from '../../schemas/feedItem';

export interface ItemText {
  /** The caption as received: the feed's, else the photo's IPTC caption. */
  captionRaw: string;
  cleaned: CleanedCaption;
  /** The normalized credit; `flags.file` also set by a "FILE PHOTO:" marker in the caption body. */
  credit: Credit;
  /** Fields cut to their caps before parsing (the record keeps them whole). */
  warnings: FieldCapWarning[];
}

/**
 * Caption and credit of one item, derived once for the record that renders and for the one that
 * failed alike: parsers see each field cut to its cap (docs/RELIABILITY.md, attack 4), the
 * caption is cleaned, the credit normalized, and a file marker in the caption body ("FILE PHOTO:",
 * "File photo dated ...") flags the credit as a file picture.
 */
export function itemText(
  item: FeedItem,
  iptc: IptcFields,
  where: { file: string; itemId: string },
  rules: { creditRules: CreditRules; boilerplate: BoilerplateRules },
): ItemText {
  const captionRaw = item.captionRaw !== '' ? item.captionRaw : (iptc.caption ?? '');
  const capped = capFields({ captionRaw, title: item.title, iptc }, { file: where.file, item: where.itemId });
  const cleaned = cleanCaption(capped.captionRaw, {
    title: capped.title,
    rules: rules.creditRules,
    boilerplate: rules.boilerplate,
  });
  const parsed = normalizeCredit(
    {
      captionTail: cleaned.creditTail,
      byline: capped.iptc.byline ?? [],
      creditLine: capped.iptc.credit ?? null,
      source: capped.iptc.source ?? null,
      copyright: capped.iptc.copyright ?? null,
    },
    rules.creditRules,
  );
  const credit = removedFileMarker(cleaned.removed) ? { ...parsed, flags: { ...parsed.flags, file: true } } : parsed;
  return { captionRaw, cleaned, credit, warnings: capped.warnings };
}

/**
 * The same for a failed record, which must be written whatever its text: when the parsers throw,
 * the raw caption and an empty credit.
 */
export function failedItemText(
  item: FeedItem,
  iptc: IptcFields,
  where: { file: string; itemId: string },
  rules: { creditRules: CreditRules; boilerplate: BoilerplateRules },
): ItemText {
  try {
    return itemText(item, iptc, where, rules);
  } catch {
    const captionRaw = item.captionRaw !== '' ? item.captionRaw : (iptc.caption ?? '');
    return {
      captionRaw,
      cleaned: { caption: captionRaw, removed: [], creditTail: null, dateCreated: null, dateline: null },
      credit: normalizeCredit(
        { captionTail: null, byline: [], creditLine: null, source: null, copyright: null },
        rules.creditRules,
      ),
      warnings: [],
    };
  }
}
