import type { FeedItem } from '../../../schemas/feedItem';

/** An item of a wire XML document that is not taken as a photo, and why. */
export interface SkippedItem {
  /** text, video, audio, package, concept, picture (a picture that could not be reached) ... */
  kind: string;
  /** Where it is: `newsItem 1 (guid) at line 42`. */
  label: string;
  reason: string;
}

export interface WireXmlResult {
  items: FeedItem[];
  skipped: SkippedItem[];
}

/** How many items were skipped, by kind: `{ text: 1, video: 1 }`. */
export function countSkipped(skipped: SkippedItem[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of skipped) counts[s.kind] = (counts[s.kind] ?? 0) + 1;
  return counts;
}

/** Detail lines beyond this many are summed up, so a feed of 10,000 stories gives a short ledger. */
const MAX_DETAIL_LINES = 20;

const plural = (kind: string, n: number): string => `${n} ${kind} item${n === 1 ? '' : 's'}`;

/**
 * Batch warnings for skipped items: one line with the count by kind ("skipped 1 text item,
 * 1 video item (not pictures)"), then one line per item with its guid and reason.
 */
export function skippedWarnings(feedPath: string, skipped: SkippedItem[]): string[] {
  if (skipped.length === 0) return [];
  const counts = Object.entries(countSkipped(skipped)).map(([kind, n]) => plural(kind, n));
  const lines = [`${feedPath}: skipped ${counts.join(', ')}`];
  for (const s of skipped.slice(0, MAX_DETAIL_LINES)) lines.push(`${feedPath}: ${s.label}: skipped, ${s.reason}`);
  if (skipped.length > MAX_DETAIL_LINES)
    lines.push(`${feedPath}: ... and ${skipped.length - MAX_DETAIL_LINES} more skipped items`);
  return lines;
}
