import type { PreviewRights } from '../../core/metadata/previewRights';
import { readItemRights, type ItemRights } from '../../core/rights/itemRightsInput';
import type { RightsRules } from '../../core/rights/rules';
import type { Credit } from '../../schemas/credit';
import type { FeedItem, IptcFields } from '../../schemas/feedItem';
import type { KillStatus, Notice } from '../../schemas/notice';

export interface RightsParts {
  item: FeedItem;
  iptc: IptcFields;
  raw?: { iim: ReadonlyArray<{ record: number; dataset: number; value: string }>; xmp: string | null };
  captionRaw: string;
  cleaned: { removed: ReadonlyArray<{ kind: string; text: string }>; creditTail: string | null };
  credit: Credit;
}

/**
 * Rights, embargo/expiry and any kill or correction notice of one item, from every text it
 * carries: the feed's wire fields, the photo's IIM and XMP, the caption's notes.
 */
export function itemRights(rules: RightsRules, p: RightsParts): ItemRights {
  return readItemRights(
    {
      item: p.item,
      iptc: p.iptc,
      iim: p.raw?.iim,
      xmp: p.raw?.xmp,
      captionRaw: p.captionRaw,
      removed: p.cleaned.removed,
      creditTail: p.cleaned.creditTail,
      agency: p.credit.agencyId ?? p.credit.agency, // the rules id ("CP"): release zones are keyed by it
    },
    rules,
  );
}

/** What the preview's IPTC/XMP carry: the longest Special Instructions read (XMP keeps what IIM cuts), the usage terms. */
export function previewRightsOf(rr: ItemRights, creditLine: string | null, copyright: string | null): PreviewRights {
  const instructions = rr.input.texts
    .filter(
      (t) =>
        t.source === 'xmp:photoshop:Instructions' ||
        t.source === 'iptc:specialInstructions' ||
        t.source === 'newsml:edNote' ||
        t.source === 'nitf:ed-msg',
    )
    .sort((a, b) => b.text.length - a.text.length)[0];
  return { specialInstructions: instructions?.text ?? null, usageTerms: rr.rights.usageTerms, creditLine, copyright };
}

export interface FailedRights {
  rights?: ItemRights['rights'];
  release?: ItemRights['release'];
  status?: Partial<KillStatus>;
  notice?: Notice | null;
}

/**
 * Rights, release and status of an item that failed (a photo that could not be decoded or
 * rendered): read from what was read of it, so a failed record still says what a desk may do
 * with it. A kill or withdrawal the item carries about itself gives its status, as it would have
 * on a record that rendered. Never throws: a failed record must still be written.
 */
export function failedItemRights(
  rules: RightsRules,
  p: RightsParts & { itemId: string; batchId: string },
  now: Date = new Date(),
): FailedRights {
  let rr: ItemRights;
  try {
    rr = itemRights(rules, p);
  } catch {
    return {};
  }
  const n = rr.notice;
  const self = n && n.selfTargeted && (n.kind === 'kill' || n.kind === 'withdraw');
  const at = now.toISOString();
  const status: Partial<KillStatus> | undefined = self
    ? {
        status: n.kind === 'kill' ? 'killed' : 'withdrawn',
        killedAt: at,
        reason: n.reason,
        notice: {
          itemId: p.itemId,
          batchId: p.batchId,
          kind: n.kind,
          source: n.source,
          text: n.text,
          targets: n.targets,
          receivedAt: at,
        },
      }
    : undefined;
  return { rights: rr.rights, release: rr.release, notice: rr.notice, ...(status ? { status } : {}) };
}
