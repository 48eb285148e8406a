import type { Config } from '../../config';
import { parseFeedBytes, type ParsedFeed } from '../../adapters/feeds/loadFeed';
import { InputError } from '../../core/errors';
import { sniffImage } from '../../core/feeds/sniff';
import type { FeedItem } from '../../schemas/feedItem';
import { fetchBytes, fetchLimits, isHttpUrl } from './fetchUrl';

export interface HttpFeed extends ParsedFeed {
  /** The feed's URL after redirects. */
  url: string;
}

/**
 * Fetch a feed by URL and parse it like a local one. Image references resolve against the feed's
 * URL; an item may never point at a local file.
 */
export async function loadHttpFeed(url: string, config: Config): Promise<HttpFeed> {
  const fetched = await fetchBytes(url, fetchLimits(config, 'feed'));
  if (sniffImage(fetched.bytes.subarray(0, 16))) {
    throw new InputError(
      'FEED_UNKNOWN_FORMAT',
      `${fetched.url}: is a photo, not a feed; an HTTP source is a NewsML-G2/NITF XML or CSV manifest whose items point at image URLs`,
    );
  }
  const parsed = parseFeedBytes(fetched.bytes, fetched.url);
  return { ...parsed, url: fetched.url, items: parsed.items.map((it) => onlyRemoteImages(it, fetched.url)) };
}

function onlyRemoteImages(item: FeedItem, feedUrl: string): FeedItem {
  if (item.image === null || isHttpUrl(item.image)) return item;
  return {
    ...item,
    image: null,
    error: item.error ?? {
      code: 'PATH_OUTSIDE_FEED',
      message: `${feedUrl}: item ${item.source.position + 1}: a feed fetched over HTTP may only name http(s) images, not ${item.image}`,
    },
  };
}
