import { createHash } from 'node:crypto';
import * as path from 'node:path';

/** Lower-case, dash-separated, short: batch ids are typed by people at the CLI. */
function slug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[^\w\s.-]/g, '')
      .replace(/\.[a-z0-9]{1,8}$/i, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 40) || 'feed'
  );
}

/**
 * A batch id from the feed's absolute path and a digest of its content: re-dropping the same
 * feed lands on the same batch (nothing is taken twice); a changed feed gets a new one.
 */
export function batchIdFor(feedPath: string, contentDigest: string): string {
  const h = createHash('sha256').update(path.resolve(feedPath)).update('\0').update(contentDigest).digest('hex');
  return `${slug(path.basename(feedPath))}-${h.slice(0, 12)}`;
}

/** An item id from its batch and position: stable across retries and re-drops. */
export function itemIdFor(batchId: string, position: number): string {
  return `${batchId}-${String(position + 1).padStart(4, '0')}`;
}
