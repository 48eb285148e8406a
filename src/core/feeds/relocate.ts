import * as path from 'node:path';

/**
 * Where a batch's files are now. A hot folder moves what it took to `processed/<day>/` once the
 * batch is done (src/app/hotFolder/moveTaken.ts), under a new name when the day already has one
 * (`photo-2.jpg`), and records each move (top-level entry → new path) with the batch. An item's
 * paths (its photo, its feed) were read before the move; these functions map them to the new place.
 * Pure: the moves are passed in, nothing is read from the disk.
 */
export type Moves = ReadonlyMap<string, string>;

/** The absolute path and each folder above it, nearest first: the keys a move of any of them is recorded under. */
export function ancestorsOf(p: string): string[] {
  if (!path.isAbsolute(p)) return [];
  const out: string[] = [];
  for (let cur = path.normalize(p); ; cur = path.dirname(cur)) {
    out.push(cur);
    if (path.dirname(cur) === cur) return out;
  }
}

/** `p` after the moves: the nearest moved folder (or the file itself) above it, with the rest of the path kept; null when none of them moved. */
export function relocatePath(p: string, moves: Moves): string | null {
  if (moves.size === 0) return null;
  for (const a of ancestorsOf(p)) {
    const to = moves.get(a);
    if (to !== undefined) return a === p ? to : path.join(to, path.relative(a, p));
  }
  return null;
}

/**
 * A photo the feed names that is not where the move records put it: one that was never in the
 * hot folder (its item failed IMAGE_NOT_FOUND) is looked for beside the feed's new place, where a
 * sender or the desk puts the missing file. Returns that place, or null when the photo was not
 * beside the feed or the feed did not move.
 */
export function besideMovedFeed(image: string, feed: string, moves: Moves): string | null {
  if (!path.isAbsolute(image) || !path.isAbsolute(feed)) return null;
  const movedFeed = relocatePath(feed, moves);
  if (movedFeed === null) return null;
  const feedDir = path.dirname(feed);
  const rel = path.relative(feedDir, image);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return path.join(path.dirname(movedFeed), rel);
}

/**
 * A failure's `source` as `photowire failed` prints it: `<file>` or `<file>:<line>` (CatalogStore
 * builds it from the record's source), with the file relocated. The line suffix is kept.
 */
export function relocateSource(source: string, moves: Moves): string | null {
  const whole = relocatePath(source, moves);
  if (whole !== null) return whole;
  const m = /^(.*):(\d+)$/.exec(source);
  if (!m) return null;
  const file = relocatePath(m[1], moves);
  return file === null ? null : `${file}:${m[2]}`;
}

/** Every key a lookup of these paths needs (each path and its folders), once: what is read from the batch's move records. */
export function moveKeysFor(paths: Iterable<string>): string[] {
  const keys = new Set<string>();
  for (const p of paths) {
    for (const candidate of [p, /^(.*):\d+$/.exec(p)?.[1]]) {
      if (candidate) for (const a of ancestorsOf(candidate)) keys.add(a);
    }
  }
  return [...keys];
}

/**
 * An item's photo and source as they read now: a moved photo (or the folder it was in) at its new
 * path; a photo the feed names that never arrived, beside the moved feed (where the missing file is
 * put), unless it is still in the hot folder (another feed there names it too). `exists` says
 * whether a path is a file now (the caller's I/O). URLs and storage keys are left as they are.
 */
export function relocateItem<T extends { image: string | null; source: { file: string } }>(
  item: T,
  feed: string,
  moves: Moves,
  exists: (p: string) => boolean,
): T {
  const sourceFile = relocatePath(item.source.file, moves);
  let image = item.image;
  if (image !== null && path.isAbsolute(image)) {
    const moved = relocatePath(image, moves);
    if (moved !== null) image = moved;
    else {
      const beside = besideMovedFeed(image, feed, moves);
      if (beside !== null && (exists(beside) || !exists(image))) image = beside;
    }
  }
  if (image === item.image && sourceFile === null) return item;
  return { ...item, image, source: { ...item.source, file: sourceFile ?? item.source.file } };
}
