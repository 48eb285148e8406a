import type { ReadyEntry } from './settle';

export interface PlannedTake extends ReadyEntry {
  /** Entries of the hot folder holding photos this feed names: they go with it, not on their own. */
  companions: string[];
  /** Taken at the end of PHOTOWIRE_PAIR_WAIT with a picture it names still absent (its item fails PICTURE_MISSING). */
  unpaired?: boolean;
}

/**
 * A delivery's pair arriving minutes apart, in either order (PHOTOWIRE_PAIR_WAIT): a feed whose
 * item's picture has not arrived waits for it, and so does a picture no feed names yet, in a
 * folder that receives deliveries; each at most `waitMs` from `since` (kept in Redis by the
 * watcher, so a restart does not start the wait again).
 */
export interface Pairing {
  now: number;
  waitMs: number;
  /** Feed → one group per item of the entries that would be its picture (any one will do: renditions, or names a picture may arrive under). */
  needs: Map<string, string[][]>;
  /** Is this entry a picture (not a feed)? Only asked of entries no present feed names. */
  isPicture: (name: string) => boolean;
  /** The folder receives deliveries: a lone picture waits for the item that may name it. */
  picturesWait: boolean;
  /** Since when each waiting entry has waited (absent: from `now`). */
  since: Map<string, number>;
}

/**
 * Agencies deliver a NewsML-G2/NITF/CSV feed and its photos side by side in one folder. A photo
 * named by a feed that is in the folder belongs to that feed: it is not taken on its own (that
 * would make a second record and move the file away before the feed's item reads it), and the
 * feed waits until each of its photos that is present is complete. With `pairing`, a feed whose
 * photo is absent, and a lone photo in a delivery folder, also wait (bounded) for their pair;
 * without it absent photos do not hold the feed (their items fail and are accounted).
 *
 * `references`: feed name → names of the top-level entries holding the photos it names.
 */
export function planTakes(
  ready: ReadyEntry[],
  present: Set<string>,
  references: Map<string, string[]>,
  pairing?: Pairing,
): PlannedTake[] {
  const heldBy = heldByFeeds(present, references);
  const readyNames = new Set(ready.map((r) => r.entry.name));
  const out: PlannedTake[] = [];
  for (const r of ready) {
    const name = r.entry.name;
    if (heldBy.has(name)) continue;
    const companions = (references.get(name) ?? []).filter((h) => h !== name && present.has(h));
    if (companions.some((h) => !readyNames.has(h))) continue;
    const wants = pairing ? wantsPair(name, present, references, pairing) : null;
    if (wants && pairing!.now - (pairing!.since.get(name) ?? pairing!.now) < pairing!.waitMs) continue;
    out.push({ ...r, companions, ...(wants === 'picture' ? { unpaired: true } : {}) });
  }
  return out;
}

/** The ready entries that wait for their pair now (the watcher looks up, or records, since when). */
export function pairWaiters(
  ready: ReadyEntry[],
  present: Set<string>,
  references: Map<string, string[]>,
  pairing: Omit<Pairing, 'since' | 'now'>,
): string[] {
  const heldBy = heldByFeeds(present, references);
  return ready
    .map((r) => r.entry.name)
    .filter((name) => !heldBy.has(name) && wantsPair(name, present, references, pairing) !== null);
}

function heldByFeeds(present: Set<string>, references: Map<string, string[]>): Map<string, string> {
  const heldBy = new Map<string, string>();
  for (const [feed, holders] of references) {
    if (!present.has(feed)) continue;
    for (const h of holders) if (h !== feed && !heldBy.has(h)) heldBy.set(h, feed);
  }
  return heldBy;
}

/** `picture`: a feed still missing an item's picture; `item`: a lone picture that an item may still name; null: nothing to wait for. */
function wantsPair(
  name: string,
  present: Set<string>,
  references: Map<string, string[]>,
  pairing: Omit<Pairing, 'since' | 'now'>,
): 'picture' | 'item' | null {
  if (pairing.waitMs <= 0) return null;
  const needs = pairing.needs.get(name);
  if (needs) return needs.some((group) => !group.some((h) => present.has(h))) ? 'picture' : null;
  if (references.has(name)) return null;
  return pairing.picturesWait && pairing.isPicture(name) ? 'item' : null;
}
