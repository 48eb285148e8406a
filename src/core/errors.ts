/**
 * Stable error codes a user sees in `status`, `failed`, `export` and run summaries.
 * Documented in the README; never rename one, only add.
 */
export const ERROR_CODES = {
  FEED_UNREADABLE: 'the feed file could not be read',
  FEED_UNKNOWN_FORMAT: 'the feed is not a format photowire reads',
  FEED_MALFORMED: 'the feed (or one of its lines) could not be parsed',
  FEED_TOO_LARGE: 'the feed file is over the size cap',
  XML_ENTITY_REFUSED: 'the XML declares a DOCTYPE or entities, which are never expanded',
  ITEM_DUPLICATE_ID: 'another item of the same feed has this id',
  ITEM_INVALID: 'the item does not match the item schema',
  PATH_OUTSIDE_FEED: "the item's image path leaves the feed's folder",
  IMAGE_NOT_FOUND: 'the image file named by the item does not exist',
  IMAGE_UNSUPPORTED: 'the file is not an image format photowire reads',
  IMAGE_CORRUPT: 'the image could not be decoded',
  IMAGE_TOO_LARGE: 'the image is over the pixel or file-size cap',
  STORAGE_FAILED: 'the data directory could not be written',
  WORKER_LOST: 'the worker processing the item died or stopped answering, three times (killed, out of memory, a crash in the image decoder)',
  FETCH_REFUSED: 'the URL is not http(s) or its host is not in PHOTOWIRE_FETCH_ALLOW',
  FETCH_FAILED: 'the URL could not be downloaded (timeout, HTTP error or too large), after retries',
  INTERNAL: 'an unexpected error (a bug): see the logs',
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Bad input: never retried. Carries a stable code and says which file/item and why. */
export class InputError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

export function isInputError(err: unknown): err is InputError {
  return err instanceof InputError;
}

/**
 * Codes that say the feed itself is bad at an item (a line that is not JSON, an invalid or
 * duplicate item, a path outside the folder) or the feed as a whole: a retry reads the same feed
 * and fails the same way, so the desk offers "fix the feed and drop it again" instead of Retry.
 */
export const FEED_LEVEL_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'FEED_UNREADABLE',
  'FEED_UNKNOWN_FORMAT',
  'FEED_MALFORMED',
  'FEED_TOO_LARGE',
  'XML_ENTITY_REFUSED',
  'ITEM_DUPLICATE_ID',
  'ITEM_INVALID',
  'PATH_OUTSIDE_FEED',
]);

/** Can `photowire retry` (or the desk's Retry) change this failure's outcome? */
export function retryCanHelp(code: string): boolean {
  return !FEED_LEVEL_CODES.has(code);
}
