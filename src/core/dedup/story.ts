/**
 * The story level: captions that share an assignment's background or slug form one
 * story, with its caption clusters inside. A wire caption is a subject sentence, then background
 * shared by the whole assignment, then a credit; `captionParts` (captionParts.ts) splits it, and
 * this file decides, from those parts alone, whether two captions are of one story and why.
 *
 * Two captions are linked when
 * - both carry a slug ("Soccer Football - <competition> - <teams> - <ground> - <date>", folded by
 *   `exactText`) and it is the same one: kind `slug`. Two different slugs are two assignments
 *   (two matches of one competition share most of their slug's words), whatever the words say;
 * - otherwise, they are of the same day and their words overlap: at least STORY_MIN_SHARED
 *   content words in common and a Jaccard index of the content-word sets (subject and background)
 *   of at least STORY_THRESHOLD: kind `words`, with the words shared. Content words are
 *   `matchTokens` minus a fixed list of function words, the first STORY_MAX_WORDS distinct ones.
 *   Same day: neither caption gives a date, or some date of one is a date of the other (the seed's
 *   12-15, May 30, and 19-22, February 1-2, share "Supreme Court ... extradition to Sweden ... sex
 *   crimes" and are two assignments; Reuters' Amazon drought stories of October 8, 9 and 10 are
 *   four, and a day of slack chained them into one).
 * The subject words count too: a caption whose background was paraphrased (the seed's 04 and 06
 * say "told the Ecuadorian authorities it believes it can enter its embassy" in the subject
 * sentence of one and the background of the other) still shares its people and places.
 * A story is a connected component of that link: single link, so the partition does not depend
 * on the order captions arrive in (`referenceStories` is the brute-force oracle). Each member
 * carries the link that brought it in (`StoryVia`): the slug, or the shared words.
 *
 * Pure: no I/O. The Redis store (src/adapters/redis/storyStore.ts) implements the same rule.
 */
import { findDates } from '../captions/readDate';
import { combine32, hashString32 } from './hash32';
import { exactText, matchTokens } from './normalize';

/** What story matching needs of a caption's parts (captionParts() gives them). */
export interface StoryPartsInput {
  subject: string;
  background: string;
  slug?: string | null;
}

/**
 * Jaccard of content words at or above which two same-day captions are one story. Measured
 * (docs/STORIES.md): the paraphrased members of the seed's 01-11 link at 0.34-0.38 (06 to
 * 01, 04 to 06, 04 to 08); two Reuters drought stories of one day (Rio Negro at Manaus, a Tapajos
 * affluent at Santarem) score at most 0.29 against each other.
 */
export const STORY_THRESHOLD = 0.3;
/** Fewest shared content words for a words link: two short captions never link on "london police". */
export const STORY_MIN_SHARED = 6;
/** Content words kept per caption (the first ones, distinct): bounds the work and the stored size. */
export const STORY_MAX_WORDS = 64;
/** Dates kept per caption (the first ones). */
export const STORY_MAX_DAYS = 8;
/** Most days between two dates of one assignment. */
export const STORY_DAY_SLACK = 0;
/** Most shared words a record's `story.via` lists. */
export const STORY_VIA_WORDS = 12;
/** Most characters of a slug kept. */
export const STORY_MAX_SLUG_CHARS = 200;
/** MinHash permutations of the content words, one band each: the store's candidate buckets. */
export const STORY_BANDS = 16;
/** Stored with the store's data: another rule, another version. */
export const STORY_RULE_VERSION = `2 t=${STORY_THRESHOLD} min=${STORY_MIN_SHARED} words=${STORY_MAX_WORDS} days=${STORY_MAX_DAYS}+-${STORY_DAY_SLACK} bands=${STORY_BANDS}`;

/**
 * Function words and wire filler that every caption has: left out of the story words so that
 * two captions are linked by what they are about. Plurals are folded before the check.
 */
const FUNCTION_WORDS = new Set(
  (
    'a about above after again against all also am an and any are around as at be because been before being below between both but by ' +
    'can could did do doe does during each few for from further had ha has have having he her here hers him his how i if in into is it its itself ' +
    'just me more most my no nor not now of off on once only or other our out over own same she should so some such than that the their ' +
    'them then there these they this those through to too under until up very wa was we were what when where which while who whom why will ' +
    'with would you your yours said say told according since amid near outside inside next ahead following per via'
  ).split(' '),
);

/** What a caption brings to story matching. */
export interface StoryEvidence {
  /** The slug folded (`exactText`), or null. */
  slug: string | null;
  /** Distinct content words of subject and background, in text order, at most STORY_MAX_WORDS. */
  words: string[];
  /** The dates the subject and background give, as days since 1970-01-01 (at most STORY_MAX_DAYS). */
  days: number[];
}

/** Why a member is in its story: the slug it shares, or the background words it shares with `with`. */
export type StoryVia =
  | { kind: 'slug'; with: string; text: string }
  | { kind: 'words'; with: string; similarity: number; shared: string[]; more: number };

/** The content words of a text (see STORY_MAX_WORDS). */
export function storyWords(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of matchTokens(text)) {
    if (w.length < 2 || FUNCTION_WORDS.has(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length === STORY_MAX_WORDS) break;
  }
  return out;
}

/** A caption's story evidence, or null when it has neither a slug nor enough words to link on. */
export function storyEvidence(parts: StoryPartsInput): StoryEvidence | null {
  const slugText = parts.slug ? exactText(parts.slug).slice(0, STORY_MAX_SLUG_CHARS).trim() : '';
  const slug = slugText === '' ? null : slugText;
  const text = `${parts.subject ?? ''} ${parts.background ?? ''}`;
  const words = storyWords(text);
  const usable = words.length >= STORY_MIN_SHARED ? words : [];
  if (slug === null && usable.length === 0) return null;
  const days = [...new Set(findDates(text).map((d) => Math.round(Date.parse(`${d.iso}T00:00:00Z`) / 86_400_000)))]
    .filter(Number.isFinite)
    .slice(0, STORY_MAX_DAYS);
  return { slug, words: usable, days };
}

/** Same day: neither gives a date, or one date of each is within STORY_DAY_SLACK days. */
export function sameDay(a: readonly number[], b: readonly number[]): boolean {
  if (a.length === 0 && b.length === 0) return true;
  return a.some((x) => b.some((y) => Math.abs(x - y) <= STORY_DAY_SLACK));
}

/** Jaccard of two word lists (each distinct) and the shared words in `a`'s order. */
export function wordOverlap(a: readonly string[], b: readonly string[]): { similarity: number; shared: string[] } {
  if (a.length === 0 || b.length === 0) return { similarity: 0, shared: [] };
  const inB = new Set(b);
  const shared = a.filter((w) => inB.has(w));
  return { similarity: shared.length / (a.length + b.length - shared.length), shared };
}

/** The link between two captions' evidence, seen from `a` (its `with` is `bId`), or null. */
export function storyLink(a: StoryEvidence, b: StoryEvidence, bId: string): StoryVia | null {
  if (a.slug !== null && b.slug !== null) return a.slug === b.slug ? { kind: 'slug', with: bId, text: a.slug } : null;
  if (!sameDay(a.days, b.days)) return null;
  const { similarity, shared } = wordOverlap(a.words, b.words);
  if (shared.length < STORY_MIN_SHARED || similarity < STORY_THRESHOLD) return null;
  return {
    kind: 'words',
    with: bId,
    similarity,
    shared: shared.slice(0, STORY_VIA_WORDS),
    more: Math.max(0, shared.length - STORY_VIA_WORDS),
  };
}

/** Which of two links explains a member better: a slug, then the higher similarity, then the earlier member. */
export function betterVia(a: StoryVia, b: StoryVia): boolean {
  if (a.kind !== b.kind) return a.kind === 'slug';
  if (a.kind === 'words' && b.kind === 'words' && a.similarity !== b.similarity) return a.similarity > b.similarity;
  return a.with < b.with;
}

/**
 * The store's candidate buckets for a caption: the slug's (exactly the captions with this slug),
 * and one MinHash band per permutation of the content words (two captions with background
 * Jaccard J share a band with probability 1 - (1 - J)^STORY_BANDS: 0.99 at J = 0.25).
 */
export function storyBands(e: StoryEvidence): string[] {
  const out: string[] = [];
  if (e.slug !== null) out.push(`s${hashString32(e.slug).toString(16)}`);
  if (e.words.length > 0) {
    const hashes = e.words.map((w) => hashString32(w));
    for (let band = 0; band < STORY_BANDS; band++) {
      const seed = hashString32(`story-band-${band}`);
      let min = 0xffffffff;
      for (const h of hashes) {
        const v = combine32(seed, h);
        if (v < min) min = v;
      }
      out.push(`${band.toString(16)}.${min.toString(16)}`);
    }
  }
  return out;
}

/** A story id: 16 hex digits from the founding item's id (stable for that item). */
export function storyIdFor(itemId: string): string {
  const a = hashString32(itemId, 0x9747b28c);
  const b = hashString32(itemId, 0x5bd1e995);
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * The brute-force oracle: the stories of these captions (connected components of `storyLink`
 * over every pair), each as item ids in input order, plus each member's best link. Quadratic:
 * tests and the benchmark only.
 */
export function referenceStories(items: ReadonlyArray<{ id: string; evidence: StoryEvidence | null }>): {
  stories: string[][];
  via: Map<string, StoryVia | null>;
} {
  const parent = items.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const via = new Map<string, StoryVia | null>();
  for (let i = 0; i < items.length; i++) {
    const a = items[i].evidence;
    let best: StoryVia | null = null;
    for (let j = 0; j < items.length; j++) {
      const b = items[j].evidence;
      if (i === j || !a || !b) continue;
      const link = storyLink(a, b, items[j].id);
      if (!link) continue;
      if (j < i) {
        if (!best || betterVia(link, best)) best = link;
      }
      const ri = find(i);
      const rj = find(j);
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
    }
    if (a) via.set(items[i].id, best);
  }
  const groups = new Map<number, string[]>();
  items.forEach((it, i) => {
    if (!it.evidence) return;
    const r = find(i);
    const g = groups.get(r) ?? [];
    g.push(it.id);
    groups.set(r, g);
  });
  return { stories: [...groups.values()], via };
}
