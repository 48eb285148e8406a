import type { Credit } from '../../schemas/credit';
import type { FeedItem, IptcFields } from '../../schemas/feedItem';
import type { KillStatus } from '../../schemas/notice';
import type { Release } from '../../schemas/release';
import type { Rights } from '../../schemas/rights';
import {
  RECORD_SCHEMA_VERSION,
  type CatalogRecord,
  type ClusterRef,
  type Rendition,
  type RecordError,
} from '../../schemas/record';

/**
 * Fields the feed states explicitly win over what the photo carries: a manifest or NewsML item
 * is the agency's latest word, the embedded IPTC may be older.
 */
export function mergeIptc(fromFeed: IptcFields, fromImage: IptcFields): IptcFields {
  const out: IptcFields = { ...fromImage };
  for (const [k, v] of Object.entries(fromFeed)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export interface CleanedCaptionLike {
  caption: string;
  removed: Array<{ kind: string; text: string }>;
  dateCreated: string | null;
  dateline: { text: string; city: string | null; state: string | null; country: string | null } | null;
}

export interface RecordParts {
  id: string;
  batchId: string;
  item: FeedItem;
  iptc: IptcFields;
  captionRaw: string;
  cleaned: CleanedCaptionLike;
  credit: Credit;
  image: CatalogRecord['image'];
  renditions: Rendition[];
  cluster: ClusterRef | null;
  photo?: CatalogRecord['photo'];
  probableResend?: boolean;
  error: RecordError | null;
  processedAt: string;
  /** Restrictions, markets, advisories (docs/RIGHTS.md); a file-photo advisory also sets credit.flags.file. */
  rights?: Rights;
  release?: Release;
  /** A kill or correction already known when the record is built (kill on arrival); active otherwise. */
  status?: Partial<KillStatus>;
}

const orNull = (s: string | undefined | null) => (s === undefined || s === null || s.trim() === '' ? null : s);

/** Assemble the catalog record: IPTC beats what was read from the caption text, never the other way. */
export function buildRecord(p: RecordParts): CatalogRecord {
  const { iptc, cleaned } = p;
  const dl = cleaned.dateline;
  const location = {
    city: orNull(iptc.city) ?? dl?.city ?? null,
    sublocation: orNull(iptc.sublocation),
    state: orNull(iptc.state) ?? dl?.state ?? null,
    country: orNull(iptc.country) ?? dl?.country ?? null,
    countryCode: orNull(iptc.countryCode),
    dateline: dl?.text ?? null,
  };
  const hasLocation = Object.values(location).some((v) => v !== null);
  // "EDS NOTE: A FILE PHOTO" in the instructions marks a file picture as the caption's "FILE PHOTO:" does.
  const credit =
    p.rights?.advisories.includes('file-photo') && !p.credit.flags.file
      ? { ...p.credit, flags: { ...p.credit.flags, file: true } }
      : p.credit;
  return {
    schemaVersion: RECORD_SCHEMA_VERSION,
    id: p.id,
    batchId: p.batchId,
    source: p.item.source,
    agencyId: orNull(p.item.agencyId) ?? orNull(iptc.transmissionReference),
    agencyVersion: orNull(p.item.agencyVersion),
    title: orNull(p.item.title),
    caption: cleaned.caption,
    captionRaw: p.captionRaw,
    captionRemoved: cleaned.removed,
    headline: orNull(iptc.headline),
    credit,
    dateCreated: orNull(iptc.dateCreated) ?? cleaned.dateCreated,
    location: hasLocation ? location : null,
    keywords: iptc.keywords ?? [],
    // The original metadata as read, caption included (the record's contract: fields are only added).
    // What a feed can make of it is bounded where it is read (src/core/feeds/capItems.ts), so the
    // caption's two copies are at most 2 x 10,000 characters.
    iptc,
    image: p.image,
    renditions: p.renditions,
    cluster: p.cluster,
    photo: p.photo ?? null,
    probableResend: p.probableResend ?? false,
    error: p.error,
    processedAt: p.processedAt,
    ...(p.rights ? { rights: p.rights } : {}),
    ...(p.release ? { release: p.release } : {}),
    status: p.status?.status ?? 'active',
    killedAt: p.status?.killedAt ?? null,
    reason: p.status?.reason ?? null,
    notice: p.status?.notice ?? null,
    supersededBy: p.status?.supersededBy ?? null,
  };
}
