import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Credit } from '../../schemas/credit';
import { parseItemId } from '../ids';

/**
 * Whose id space an agency id lives in. Two feeds that both number their items "1" (a dpa photo
 * and a Kyodo photo) are two photos: a bare id names a photo only together with its provider.
 * An id that is unique by construction (a URN, a `tag:` guid, an IPTC/UUID GUID) needs none.
 *
 * The provider is the organisation that transmitted the item, which is the one whose id space a
 * transmission reference or a manifest id belongs to: the credit's distributor ("Name/Member
 * Paper/AP" is sent by AP), else its agency, else the feed itself.
 */

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A URN, a tag: guid, a URL-like guid (`scheme:...`) or a UUID: unique without a provider. */
export function isGlobalAgencyId(id: string): boolean {
  const t = id.trim();
  if (/^(?:urn|tag):/i.test(t)) return true;
  if (UUID.test(t.replace(/^\{|\}$/g, ''))) return true;
  // NewsML guids of other schemes ("http://...", "nsid:...") carry their authority before the colon
  return /^[a-z][a-z0-9+.-]{1,20}:[^\s]{3,}$/i.test(t);
}

/** An organisation name or rules id as a provider key: upper case, letters and digits only ("Getty Images" -> GETTYIMAGES). */
export function providerKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '')
    .toUpperCase()
    .slice(0, 40);
}

/** The provider of an item: the credit's distributor, else its agency, else `fallback` (feedProvider of the feed it came in). */
export function providerOf(
  credit: Pick<Credit, 'agency' | 'distributor' | 'agencyId' | 'distributorId'> | null | undefined,
  fallback: string,
): string {
  const named = credit ? (credit.distributorId ?? credit.distributor ?? credit.agencyId ?? credit.agency) : null;
  const key = named ? providerKey(named) : '';
  return key || fallback;
}

/**
 * The provider of an item whose credit names none: its feed (`feed:` and a digest of the feed's
 * path, so it never holds the '/' that ends a provider in a scoped id). A feed re-dropped with
 * changes keeps its path and so its id space.
 */
export function feedProvider(feedFile: string): string {
  // A photo dropped on its own or in a folder is its own "feed file": its folder is the feed.
  const feed = /\.(?:jpe?g|tiff?|png|webp|hei[cf]|gif)$/i.test(feedFile)
    ? path.posix.dirname(feedFile.replace(/\\/g, '/'))
    : feedFile;
  return `feed:${createHash('sha256').update(feed).digest('hex').slice(0, 12)}`;
}

/** Whether a provider key is a feed's (the item named no organisation). */
export function isFeedProvider(provider: string): boolean {
  return provider.startsWith('feed:');
}

/** The id as a kill group names it: `<provider>/<id>`, or the id alone when it is global. */
export function scopedAgencyId(id: string, provider: string): string {
  const t = id.trim();
  return isGlobalAgencyId(t) ? t : `${provider}/${t}`;
}

/** What a kill target typed by a person is: photowire's item id, a photo id, a stored original, or an agency id. */
export type KillTargetKind = 'item' | 'photo' | 'original' | 'agency';

/**
 * The kind of a target by its grammar: an item id (`<batch>-<12 hex>-0001`), a photo id (a SHA-256
 * in hex), a stored original (`originals/...`), else an agency id. The grammar decides, not whether
 * photowire has seen it yet: a kill typed while the item is still queued must wait for that item.
 */
export function killTargetKind(target: string): KillTargetKind {
  const t = target.trim();
  if (parseItemId(t)) return 'item';
  if (/^[0-9a-f]{64}$/.test(t)) return 'photo';
  if (/^originals\//.test(t)) return 'original';
  return 'agency';
}

/** Control characters never belong in a group name (they separate fields in the kill store's sorted sets). */
export function cleanId(id: string): string {
  return id.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}
