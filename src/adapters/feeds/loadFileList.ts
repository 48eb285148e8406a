import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadFeed, type LoadedFeed } from './loadFeed';
import { isInputError } from '../../core/errors';
import { assembleFolderFeed, type FolderPart } from '../../core/feeds/folderFeed';

/**
 * One batch from a list of files below `root` (the new files of a scheduled run): text feeds
 * (manifests, XML, gallery text) contribute their items, with the pictures they name; a picture
 * no feed names is an item of its own (src/core/feeds/folderFeed.ts, as for any folder feed). A file that
 * cannot be read becomes an item carrying its error, so the run's ledger accounts for it; a file
 * that is no feed at all (a README) is a warning.
 * Symlinks (listFolder lists them, never follows them): one whose real path leaves `root`'s real
 * path becomes an item failed with PATH_OUTSIDE_FEED (nothing behind it is read); a symlinked
 * folder inside is a warning (never entered); a symlinked file inside is read like any file.
 * Special files (FIFOs, sockets, devices) are warnings, never opened.
 * Positions are renumbered across the batch: records are keyed by position.
 */
export async function loadFileList(
  root: string,
  files: string[],
  maxFeedBytes: number,
  batchId: string,
  opts: { signal?: AbortSignal } = {},
): Promise<LoadedFeed> {
  const parts: FolderPart[] = [];
  const warnings: string[] = [];
  const realRoot = await fs.realpath(root);
  const refused = (file: string, code: string, message: string) =>
    parts.push({
      file,
      picture: false,
      items: [
        {
          source: { file, position: 0, format: 'unreadable' },
          captionRaw: '',
          iptc: {},
          image: null,
          error: { code, message },
        },
      ],
    });
  for (const file of files) {
    opts.signal?.throwIfAborted();
    const own = await fs.lstat(file).catch(() => null);
    if (own?.isSymbolicLink()) {
      const target = await fs.readlink(file).catch(() => '?');
      const real = await fs.realpath(file).catch(() => null);
      if (real === null) {
        warnings.push(`${file}: skipped, a symlink to ${target}, which does not exist`);
        continue;
      }
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
        refused(
          file,
          'PATH_OUTSIDE_FEED',
          `${file} is a symlink to ${real}, outside the folder ${realRoot}: never followed, nothing behind it read`,
        );
        continue;
      }
      if ((await fs.stat(real)).isDirectory()) {
        warnings.push(`${file}: skipped, a symlinked folder (to ${target}) is never followed`);
        continue;
      }
    } else if (own && !own.isFile()) {
      warnings.push(
        `${file}: skipped, not a regular file (${own.isFIFO() ? 'a FIFO' : own.isSocket() ? 'a socket' : own.isDirectory() ? 'a folder' : 'a device'})`,
      );
      continue;
    }
    try {
      const feed = await loadFeed(file, maxFeedBytes, opts);
      warnings.push(...feed.warnings);
      parts.push({
        file,
        picture: feed.format === 'image',
        items: feed.items,
        names: feed.names,
        article: feed.article,
        skipped: feed.skipped,
      });
    } catch (err) {
      if (!isInputError(err)) throw err;
      // A README or checksum file beside the photos is not a failure: it is listed, like a folder feed does.
      if (err.code === 'FEED_UNKNOWN_FORMAT') {
        warnings.push(`${file}: skipped, not a feed or photo photowire reads`);
        continue;
      }
      refused(file, err.code, err.message);
    }
  }
  // The same assembly as every folder feed (src/core/feeds/folderFeed.ts): a picture an item of
  // the run names is that item's; an item's picture taken by an earlier run is still beside it.
  const listed = new Set(parts.map((p) => p.file));
  const folder = assembleFolderFeed(parts, (p) => listed.has(p) || existsSync(p));
  return {
    batchId,
    feedPath: root,
    root,
    format: 'file-list',
    items: folder.items,
    article: folder.article,
    warnings,
    ...(Object.keys(folder.skipped).length ? { skipped: folder.skipped } : {}),
  };
}
