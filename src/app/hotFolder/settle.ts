/**
 * When is a dropped file (or folder) complete? Pure decisions over successive scans of a hot
 * folder; the scanner turns the file system into observations, the watcher acts on `ready`.
 */

export interface EntryObservation {
  name: string;
  /**
   * `link`: a symlink, never followed (the watcher refuses it with PATH_OUTSIDE_FEED); `special`:
   * a FIFO, socket or device, never opened (refused with FEED_UNREADABLE).
   */
  kind: 'file' | 'dir' | 'link' | 'special';
  /** Size and mtime of a file or link; file count, total size and newest mtime of everything below a folder. */
  signature: string;
  /** The inode, to recognise a rename from a temp name; 0 when the file system gives none. */
  ino: number;
  /** A folder that still holds temp-named files (an upload in progress inside it). */
  incomplete: boolean;
  /** For an incomplete folder: the first temp-named files inside it (relative paths), for messages. */
  tempNames?: string[];
}

export interface ScanListing {
  candidates: EntryObservation[];
  /** Entries under a temp name: remembered so that their rename to a final name is seen. */
  temps: EntryObservation[];
  /** Names announced complete by a `<name>.done` marker. */
  marked: Set<string>;
  /** The folder holds more top-level entries than one scan looks at (SCAN_MAX_TOP_LEVEL). */
  truncated?: boolean;
}

export interface SettleState {
  tracked: Map<string, { signature: string; since: number }>;
  /** Inode → temp name and when it was last seen. */
  tempInodes: Map<number, { name: string; seenAt: number }>;
  /** Folder name → since when it has been held back by temp-named files inside it. */
  holding: Map<string, number>;
}

export type ReadyReason = 'marker' | 'renamed' | 'settled';

export interface ReadyEntry {
  entry: EntryObservation;
  reason: ReadyReason;
}

/** A folder that would be taken but still holds temp-named files: it waits for them. */
export interface HeldEntry {
  entry: EntryObservation;
  /** Since when (this machine's clock) it has been waiting. */
  since: number;
  /** Its marker is there: the sender said it is done, yet a file inside is still under a temp name. */
  marked: boolean;
}

export function emptySettleState(): SettleState {
  return { tracked: new Map(), tempInodes: new Map(), holding: new Map() };
}

/**
 * How long a folder may wait for a temp-named file inside it before the watcher says so (in the
 * log and in `photowire runs`): HOLD_WARN_FACTOR settle times, at least HOLD_WARN_MIN_MS. An upload
 * that is still going is normal for a while; one that stays a `.part` for twenty settle times is
 * most likely a sender that died or never renamed it.
 */
export const HOLD_WARN_FACTOR = 20;
export const HOLD_WARN_MIN_MS = 2 * 60_000;
export const holdWarnMs = (settleMs: number): number => Math.max(HOLD_WARN_MIN_MS, settleMs * HOLD_WARN_FACTOR);

/**
 * Did `name` come from renaming `tempName`? The inode says it is the same file; the name check
 * guards against an inode reused by an unrelated new file between two scans.
 */
export function renamedFrom(tempName: string, name: string): boolean {
  const stem = name.replace(/\.[^.]*$/, '');
  return tempName.includes(name) || (stem.length > 0 && tempName.includes(stem));
}

/**
 * One scan: which candidates are complete now. A candidate is ready when its marker exists, when
 * it appears under a new name after a temp name seen recently (within `tempMemoryMs`: a rename
 * that happens while a scan is listing the folder hides the file from that scan), or when its
 * signature has not changed for `settleMs` (measured on this machine's clock, so a network mount's
 * skewed mtimes do not matter). A folder still holding temp-named files is never ready, whatever
 * its marker says (a marker written beside a folder whose last photo is still `cp.jpg.part` would
 * otherwise take the half-written file and move the folder away before the sender's rename): it is
 * `held`, with the time it began waiting.
 */
export function settleStep(
  state: SettleState,
  listing: ScanListing,
  now: number,
  settleMs: number,
  tempMemoryMs = 60_000,
): { state: SettleState; ready: ReadyEntry[]; held: HeldEntry[] } {
  const tracked = new Map<string, { signature: string; since: number }>();
  const holding = new Map<string, number>();
  const ready: ReadyEntry[] = [];
  const held: HeldEntry[] = [];
  for (const entry of listing.candidates) {
    const prev = state.tracked.get(entry.name);
    const since = prev && prev.signature === entry.signature ? prev.since : now;
    tracked.set(entry.name, { signature: entry.signature, since });
    if (entry.incomplete) {
      const waiting = state.holding.get(entry.name) ?? now;
      holding.set(entry.name, waiting);
      held.push({ entry, since: waiting, marked: listing.marked.has(entry.name) });
      continue;
    }
    if (listing.marked.has(entry.name)) {
      ready.push({ entry, reason: 'marker' });
      continue;
    }
    const tempName = entry.ino !== 0 ? state.tempInodes.get(entry.ino)?.name : undefined;
    if (!prev && tempName !== undefined && renamedFrom(tempName, entry.name)) {
      ready.push({ entry, reason: 'renamed' });
      continue;
    }
    if (now - since >= settleMs) ready.push({ entry, reason: 'settled' });
  }
  const tempInodes = new Map<number, { name: string; seenAt: number }>();
  for (const [ino, t] of state.tempInodes)
    if (now - t.seenAt <= tempMemoryMs && !present(listing, ino)) tempInodes.set(ino, t);
  for (const t of listing.temps) if (t.ino !== 0) tempInodes.set(t.ino, { name: t.name, seenAt: now });
  return { state: { tracked, tempInodes, holding }, ready, held };
}

/** `gallery/ still holds cp.jpg.part after 3 min; waiting for the sender`: what the log and `photowire runs` say. */
export function heldMessage(h: HeldEntry, now: number): string {
  const names = h.entry.tempNames?.length ? h.entry.tempNames.join(', ') : 'temp-named files';
  const ms = now - h.since;
  // Hand-written, not ms(): `3 min` in a sentence, where ms(150000, { long: true }) would round 150 s up to `3 minutes`.
  const waited = ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min`;
  return `${h.entry.name}/ still holds ${names} after ${waited}${h.marked ? ' (its .done marker is there)' : ''}; waiting for the sender`;
}

/** A remembered temp inode that now belongs to a candidate has been used: forget it. */
function present(listing: ScanListing, ino: number): boolean {
  return listing.candidates.some((c) => c.ino === ino);
}
