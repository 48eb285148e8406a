import * as path from 'node:path';
import { isInputError } from '../../errors';
import { confinePath } from '../confinePath';
import { confineStorageRef, isStorageRef } from '../storageFeed';

export interface ResolvedImage {
  image: string | null;
  error?: { code: string; message: string };
}

const HTTP_URL = /^https?:\/\//i;
// Two letters or more, so a Windows drive letter is not read as a scheme.
const URI_SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/**
 * Turn an image reference written in a feed into what FeedItem.image holds: an absolute path
 * confined to the feed's folder (for a feed in storage, `storage:<key>` below its folder:
 * src/core/feeds/storageFeed.ts), or an http(s) URL. A reference that cannot be used becomes a
 * per-item error (the item still comes out), never an exception that would sink the feed.
 *
 * `isUri`: XML hrefs are URI references, so `%20` means a space; CSV cells are plain paths.
 * A feed fetched over HTTP resolves relative references against its own URL and may never
 * point at a local file.
 */
export function resolveImageRef(
  feedPath: string,
  ref: string | undefined,
  isUri: boolean,
  itemLabel: string,
): ResolvedImage {
  const value = ref?.trim();
  if (!value) return { image: null };

  if (HTTP_URL.test(feedPath)) {
    let url: URL;
    try {
      url = new URL(value, feedPath);
    } catch {
      return outside(itemLabel, value, 'is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return outside(itemLabel, value, 'points outside the web feed it came in (only http and https are followed)');
    }
    return { image: url.href };
  }

  if (HTTP_URL.test(value)) return { image: value };
  const scheme = URI_SCHEME.exec(value)?.[1];
  if (scheme && scheme.toLowerCase() !== 'file') {
    return outside(
      itemLabel,
      value,
      `uses the ${scheme}: scheme; only paths inside the feed folder, file: and http(s) URLs are read`,
    );
  }

  let local = value;
  if (isUri && !scheme && local.includes('%')) {
    try {
      local = decodeURIComponent(local);
    } catch {
      // Not valid percent-encoding: the name is taken literally.
    }
  }
  try {
    // A feed in storage (a desk upload): the photo is a key below the feed's folder, never a local path.
    if (isStorageRef(feedPath)) return { image: confineStorageRef(feedPath, local) };
    return { image: confinePath(path.dirname(feedPath), local) };
  } catch (err) {
    if (isInputError(err)) return { image: null, error: { code: err.code, message: `${itemLabel}: ${err.message}` } };
    throw err;
  }
}

function outside(itemLabel: string, ref: string, why: string): ResolvedImage {
  return {
    image: null,
    error: { code: 'PATH_OUTSIDE_FEED', message: `${itemLabel}: image reference ${JSON.stringify(ref)} ${why}` },
  };
}
