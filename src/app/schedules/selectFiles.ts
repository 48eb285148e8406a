import type { Cursor } from '../../core/schedules/cursor';
import { newSinceCursor } from '../../core/schedules/cursor';

export interface ListedFile {
  /** Absolute path: the cursor key. */
  abs: string;
  /** Path relative to the source folder, for messages. */
  rel: string;
  size: number;
  mtimeMs: number;
}

export const fileSignature = (f: Pick<ListedFile, 'size' | 'mtimeMs'>): string => `${f.size}:${f.mtimeMs}`;

export interface FileSelection {
  take: ListedFile[];
  /** New files modified within the settle time: probably still being written, left for the next run. */
  young: ListedFile[];
}

/**
 * The files a scheduled run takes from a folder: new since the cursor, and either announced by a
 * `.done` marker or untouched for `settleMs` (there is no earlier scan to compare with, so the
 * mtime is the only clue that a file is still arriving).
 */
export function selectFiles(
  listed: ListedFile[],
  marked: Set<string>,
  cursor: Cursor,
  now: number,
  settleMs: number,
): FileSelection {
  const fresh = new Set(
    newSinceCursor(
      listed.map((f) => ({ key: f.abs, signature: fileSignature(f) })),
      cursor,
    ).map((e) => e.key),
  );
  const take: ListedFile[] = [];
  const young: ListedFile[] = [];
  for (const f of listed) {
    if (!fresh.has(f.abs)) continue;
    if (marked.has(f.abs) || now - f.mtimeMs >= settleMs) take.push(f);
    else young.push(f);
  }
  take.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { take, young };
}
