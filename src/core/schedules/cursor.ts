/**
 * What a scheduled import has already taken, so that a run takes only what is new. One entry per
 * source file (key: absolute path, signature: size and mtime, so a file rewritten in place is a
 * new version) or per item of an HTTP feed (key: agency id and version, or image URL).
 */

export interface CursorEntry {
  signature: string;
  takenAt: number;
}
export type Cursor = Map<string, CursorEntry>;

export interface Keyed {
  key: string;
  signature: string;
}

export function encodeCursorEntry(e: CursorEntry): string {
  return `${e.takenAt}|${e.signature}`;
}

export function decodeCursor(hash: Record<string, string>): Cursor {
  const out: Cursor = new Map();
  for (const [key, value] of Object.entries(hash)) {
    const bar = value.indexOf('|');
    const takenAt = Number(value.slice(0, bar));
    if (bar < 0 || !Number.isFinite(takenAt)) continue;
    out.set(key, { takenAt, signature: value.slice(bar + 1) });
  }
  return out;
}

/** Entries the cursor has not seen, or has seen with another signature (a new version of a file). */
export function newSinceCursor<T extends Keyed>(entries: T[], cursor: Cursor): T[] {
  return entries.filter((e) => cursor.get(e.key)?.signature !== e.signature);
}

/**
 * Cursor keys that may be forgotten: gone from the source and taken longer ago than `retentionMs`.
 * A source that is briefly empty (an unmounted share) must not make everything new again, hence
 * the retention; an empty listing prunes nothing at all.
 */
export function prunableKeys(cursor: Cursor, present: Set<string>, now: number, retentionMs: number): string[] {
  if (present.size === 0) return [];
  const out: string[] = [];
  for (const [key, e] of cursor) if (!present.has(key) && now - e.takenAt > retentionMs) out.push(key);
  return out;
}
