import type { ReadyEntry } from './settle';

export interface PlannedTake extends ReadyEntry {
  /** Entries of the hot folder holding photos this feed names: they go with it, not on their own. */
  companions: string[];
}

/**
 * Agencies deliver a NewsML-G2/NITF/CSV feed and its photos side by side in one folder. A photo
 * named by a feed that is in the folder belongs to that feed: it is not taken on its own (that
 * would make a second record and move the file away before the feed's item reads it), and the
 * feed waits until each of its photos that is present is complete. Photos the feed names that
 * are absent do not hold it (their items fail with IMAGE_NOT_FOUND and are accounted).
 *
 * `references`: feed name → names of the top-level entries holding the photos it names.
 */
export function planTakes(ready: ReadyEntry[], present: Set<string>, references: Map<string, string[]>): PlannedTake[] {
  const heldBy = new Map<string, string>();
  for (const [feed, holders] of references) {
    if (!present.has(feed)) continue;
    for (const h of holders) if (h !== feed && !heldBy.has(h)) heldBy.set(h, feed);
  }
  const readyNames = new Set(ready.map((r) => r.entry.name));
  const out: PlannedTake[] = [];
  for (const r of ready) {
    if (heldBy.has(r.entry.name)) continue;
    const companions = (references.get(r.entry.name) ?? []).filter((h) => h !== r.entry.name && present.has(h));
    if (companions.some((h) => !readyNames.has(h))) continue;
    out.push({ ...r, companions });
  }
  return out;
}
