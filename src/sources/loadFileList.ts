import * as path from 'node:path';
import { loadFeed, type LoadedFeed } from '../adapters/feeds/loadFeed';
import { isInputError } from '../core/errors';
import type { FeedItem } from '../schemas/feedItem';

/**
 * Images named by a text feed of the same run are that feed's items; taking them again as
 * standalone photos would make two records of one photo.
 */
export function standaloneImages(imageFiles: string[], referenced: Set<string>): string[] {
  return imageFiles.filter((f) => !referenced.has(f));
}

/**
 * One batch from a list of files below `root` (the new files of a scheduled run): photos become
 * one item each, text feeds (manifests, XML, gallery text) contribute their items. A file that
 * cannot be read becomes an item carrying its error, so the run's ledger accounts for it; a file
 * that is no feed at all (a README) is a warning.
 * Positions are renumbered across the batch: records are keyed by position.
 */
export async function loadFileList(root: string, files: string[], maxFeedBytes: number, batchId: string): Promise<LoadedFeed> {
  const parts: Array<{ photo: string | null; items: FeedItem[] }> = [];
  const warnings: string[] = [];
  const articles: string[] = [];
  for (const file of files) {
    try {
      const feed = await loadFeed(file, maxFeedBytes);
      warnings.push(...feed.warnings);
      if (feed.article) articles.push(feed.article);
      parts.push({ photo: feed.format === 'image' ? file : null, items: feed.items });
    } catch (err) {
      if (!isInputError(err)) throw err;
      // A README or checksum file beside the photos is not a failure: it is listed, like a folder feed does.
      if (err.code === 'FEED_UNKNOWN_FORMAT') {
        warnings.push(`${file}: skipped, not a feed or photo photowire reads`);
        continue;
      }
      parts.push({ photo: null, items: [{ source: { file, position: 0, format: 'unreadable' }, captionRaw: '', iptc: {}, image: null, error: { code: err.code, message: err.message } }] });
    }
  }
  const referenced = new Set(
    parts
      .filter((p) => p.photo === null)
      .flatMap((p) => p.items.map((i) => i.image))
      .filter((i): i is string => i !== null)
      .map((i) => path.resolve(i)),
  );
  const kept = new Set(standaloneImages(parts.flatMap((p) => (p.photo ? [p.photo] : [])), referenced));
  const items = parts
    .filter((p) => p.photo === null || kept.has(p.photo))
    .flatMap((p) => p.items)
    .map((item, position) => ({ ...item, source: { ...item.source, position } }));
  return { batchId, feedPath: root, root, format: 'file-list', items, article: articles.length ? articles.join('\n\n') : null, warnings };
}
