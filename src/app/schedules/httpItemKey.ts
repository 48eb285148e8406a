import { createHash } from 'node:crypto';
import type { FeedItem } from '../../schemas/feedItem';
import type { Keyed } from '../../core/schedules/cursor';

const digest = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 24);

/**
 * How an item of an HTTP feed is recognised between runs. The agency's id names the item and its
 * version tells a correction from a repeat (an item without a version is compared by content);
 * without an id, the image URL names it; failing both, its whole content does.
 */
export function httpItemKey(item: FeedItem): Keyed {
  const content = {
    captionRaw: item.captionRaw,
    title: item.title ?? null,
    iptc: item.iptc,
    image: item.image,
    error: item.error ?? null,
  };
  if (item.agencyId)
    return {
      key: `id:${item.agencyId}`,
      signature: item.agencyVersion ? `v:${item.agencyVersion}` : `h:${digest(content)}`,
    };
  if (item.image) return { key: `image:${item.image}`, signature: `h:${digest(content)}` };
  return { key: `item:${digest(content)}`, signature: '' };
}
