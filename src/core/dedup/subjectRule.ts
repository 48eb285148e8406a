import { hash } from 'node:crypto';
import { findDates } from '../captions/readDate';
import { hashString32 } from './hash32';
import { captionParts, partsOfNormalized, type CaptionParts } from './captionParts';
import { captionWords, tokensFromWords } from './normalize';
import { myers } from './wordDiff';

/**
 * The caption-cluster rule: two captions are one cluster when they say the same subject
 * about the same picture, however resent. What is compared is the caption's head, its slug (or
 * dateline) and subject sentence (captionParts): the background sentences may be appended,
 * dropped or different (a resend that drops the second sentence is the same picture; another
 * picture of one assignment shares the background and differs in the subject).
 *
 * On the head's comparison tokens (words lower case, plurals folded, diacritics dropped, a full date
 * in any wire format one token, weekdays dropped, a score one token), the word-level edit script
 * must consist only of
 * - function words added or dropped ("A masked supporter" / "Masked supporters"), at most
 *   MAX_FUNCTION_EDITS tokens;
 * - substitutions of one word by a spelling of it (a typo fixed, "Ecudorian" -> "Ecuadorian":
 *   Damerau-Levenshtein 1, 2 from 8 letters, words of 4+ letters) or of one plain number by another
 *   (a number corrected), at most MAX_SUBSTITUTIONS, and fewer than the head has content words.
 * Anything else is another subject: another person, object or place (content words replaced,
 * added or dropped: "A masked supporter of Julian Assange" / "Police officers"; "(C)" / "(R)"),
 * another moment (first/second, before/after, another date or time) or another score.
 */

/** Part of the parameters' fingerprint (the index refuses another): bump on any change to the rule or the normalisation. */
export const SUBJECT_RULE_VERSION = 1;
/** Most typo or number substitutions between two heads of one cluster. The index's keys (segmentKeys) assume 2. */
export const MAX_SUBSTITUTIONS = 2;
/** Most function-word tokens added or dropped between two heads of one cluster. */
export const MAX_FUNCTION_EDITS = 3;
/** Most head tokens compared (a feed-controlled size): a head longer than this is cut. */
export const MAX_HEAD_TOKENS = 160;

/** What the index stores with its data: a start with another fingerprint needs `clusters rebuild`. */
export function subjectRuleFingerprint(): string {
  return JSON.stringify({
    rule: SUBJECT_RULE_VERSION,
    maxSubstitutions: MAX_SUBSTITUTIONS,
    maxFunctionEdits: MAX_FUNCTION_EDITS,
    maxHeadTokens: MAX_HEAD_TOKENS,
    keys: 'interleaved-signed-v2',
  });
}

/**
 * Words whose addition or removal never makes another picture: articles, the prepositions and
 * conjunctions wires drop when they shorten a line. Not "before", "after", "during" (another
 * moment), not pronouns ("his"/"her": another person).
 */
const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'and',
  'with',
  'by',
  'from',
  'as',
  'is',
  'are',
  'its',
]);
const WEEKDAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const DATE_TOKEN = /^d\d{8}$/;
const SCORE_TOKEN = /^s\d+x\d+$/;
const NUMBER = /^\d+$/;
const LETTERS = /^\p{L}+$/u;

/** What the rule compares of one caption. */
export interface SubjectHead {
  /** The comparison tokens of the head (slug or dateline, then subject). */
  tokens: string[];
  /** Distinct content tokens (not function words), sorted. */
  content: string[];
}

/** One bucket key of a head (segmentKeys), and what the bucket keeps of the head's other content words. */
export interface SegmentKey {
  key: string;
  /**
   * One character per content position outside the key's parts (signatureChar): equal words give
   * equal characters, so a bucket entry whose signature differs from a head's in more than
   * MAX_SUBSTITUTIONS characters is a head the rule cannot join to it.
   */
  sig: string;
}

/** What the rule and the index keep of one caption. */
export interface SubjectKey extends SubjectHead {
  /** The index's bucket keys (segmentKeys): any two heads the rule joins share one. */
  keys: SegmentKey[];
  /** 16 hex digits of the tokens' SHA-256: the id a cluster started by this head gets. */
  id: string;
}

/** One edit between two heads, as the record explains it. */
export interface SubjectEdit {
  kind: 'function-word' | 'spelling' | 'number' | 'content';
  from: string;
  to: string;
}

export interface SubjectMatch {
  same: boolean;
  /** Tokens changed (function words, substitutions): the best match has the fewest. */
  cost: number;
  edits: SubjectEdit[];
  /** For a different subject: the first content edit. */
  reason?: string;
}

/** The head of a caption (slug or dateline, then subject) as comparison tokens. */
export function headTokens(parts: CaptionParts): string[] {
  const head = [parts.slug ?? parts.dateline ?? '', parts.subject].filter((s) => s !== '').join(' ');
  return comparisonTokens(head).slice(0, MAX_HEAD_TOKENS);
}

/**
 * Tokens of a text for the rule: full dates in any wire format become one token d<yyyymmdd>
 * ("May 30, 2012" = "30 May 2012" = "30/05/2012"), scores and clock times one token s<a>x<b>
 * ("2-1", "2:1"), weekday names are dropped, the rest are the dedup's match tokens.
 */
export function comparisonTokens(text: string): string[] {
  let s = text;
  const dates = findDates(s);
  for (let i = dates.length - 1; i >= 0; i--) {
    const d = dates[i];
    s = `${s.slice(0, d.index)} d${d.iso.replace(/-/g, '')} ${s.slice(d.end)}`;
  }
  s = s.replace(/\b(\d{1,3})\s?[-:\u2013]\s?(\d{1,3})\b/g, ' s$1x$2 ');
  return tokensFromWords(captionWords(s)).filter((t) => !WEEKDAYS.has(t));
}

export function subjectKeyOfParts(parts: CaptionParts): SubjectKey | null {
  return subjectKeyOfTokens(headTokens(parts));
}

/** What the rule compares of a head's comparison tokens (the index's stored canonicals: no keys, no id). */
export function subjectHeadOfTokens(tokens: string[]): SubjectHead | null {
  if (tokens.length === 0) return null;
  return { tokens, content: [...new Set(tokens.filter((t) => !FUNCTION_WORDS.has(t)))].sort() };
}

/** The key of a head's comparison tokens (what the index stores with each canonical caption). */
export function subjectKeyOfTokens(tokens: string[]): SubjectKey | null {
  if (tokens.length === 0) return null;
  const sequence = tokens.filter((t) => !FUNCTION_WORDS.has(t));
  const content = [...new Set(sequence)].sort();
  return {
    tokens,
    content,
    keys: segmentKeys(tokens, sequence),
    id: hash('sha256', `s${SUBJECT_RULE_VERSION}\u0000${tokens.join(' ')}`, 'hex').slice(0, 16),
  };
}

/** The 64 characters of a signature (no ';': the index separates bucket entries with it). */
const SIGNATURE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** One content word's signature character: 6 bits of its hash (the same word, the same character). */
export function signatureChar(token: string): string {
  return SIGNATURE_ALPHABET[hashString32(token) & 63];
}

/**
 * The index's keys of a head, such that two heads the rule joins always share one (the index is
 * exact, docs/DEDUP.md): the rule allows only function-word edits and at most MAX_SUBSTITUTIONS
 * (2) one-for-one word substitutions, so the two heads' content-word sequences have the same length
 * L and differ in at most 2 positions. Dealt into 4 parts (position p goes to part p mod 4), at
 * least 2 parts are the same, so one of the 6 pairs of parts is a shared key (with L); with L = 2
 * or 3 the rule allows at most L - 1 substitutions and one of the single words is shared; L = 1
 * allows none. A head of function words only is keyed by its whole text (the rule joins it only to
 * the same text).
 *
 * Dealt, not cut into quarters: a wire caption's words come in runs shared by a whole assignment
 * (a place, a slug), and a key made of such runs alone holds every picture of the assignment; each
 * dealt part takes words from every run. On 300k generated captions this cut the candidates per new
 * head from 208 to 28 (docs/DEDUP.md "Measured").
 *
 * Each key carries the signature of the positions outside its parts: a candidate that shares the
 * key and is the rule's differs from the head in at most MAX_SUBSTITUTIONS of those positions.
 */
export function segmentKeys(tokens: readonly string[], sequence: readonly string[]): SegmentKey[] {
  const L = sequence.length;
  if (L === 0) return [{ key: `=${tokens.join(' ')}`, sig: '' }];
  const chars = sequence.map(signatureChar);
  const sigWithout = (inKey: (p: number) => boolean) => chars.filter((_c, p) => !inKey(p)).join('');
  if (L < 4) return sequence.map((t, i) => ({ key: `${L}|${i}|${t}`, sig: sigWithout((p) => p === i) }));
  const parts = [0, 1, 2, 3].map((k) => sequence.filter((_t, p) => p % 4 === k).join(' '));
  const keys: SegmentKey[] = [];
  for (let i = 0; i < 4; i++)
    for (let j = i + 1; j < 4; j++)
      keys.push({
        key: `${L}|${i}${j}|${parts[i]}|${parts[j]}`,
        sig: sigWithout((p) => p % 4 === i || p % 4 === j),
      });
  return keys;
}

/**
 * How many characters of two signatures of one key differ, stopping above max (a signature of
 * another length is another key's, after a clash of bucket fields: never within max).
 */
export function signatureDistance(a: string, b: string, max = MAX_SUBSTITUTIONS): number {
  if (a.length !== b.length) return max + 1;
  let d = 0;
  for (let i = 0; i < a.length && d <= max; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) d++;
  return d;
}

/** The key of a caption as received (or cleaned), or null when its head has no words. */
export function subjectKey(caption: string): SubjectKey | null {
  return subjectKeyOfParts(captionParts(caption));
}

/** Key of a caption already normalised (normalizeCaption's output). */
export function subjectKeyOfNormalized(text: string): SubjectKey | null {
  return subjectKeyOfParts(partsOfNormalized(text));
}

/** Damerau-Levenshtein (optimal string alignment) distance, stopping early above `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_v, j) => j);
  for (let i = 1; i <= n; i++) {
    const cur = new Array<number>(m + 1);
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[m];
}

/** How one word may stand for another in one subject: a spelling of it, or a corrected number. */
function substitution(from: string, to: string): 'spelling' | 'number' | null {
  if (NUMBER.test(from) && NUMBER.test(to)) return 'number';
  if (DATE_TOKEN.test(from) || DATE_TOKEN.test(to) || SCORE_TOKEN.test(from) || SCORE_TOKEN.test(to)) return null;
  if (!LETTERS.test(from) || !LETTERS.test(to) || from.length < 4 || to.length < 4) return null;
  const max = Math.min(from.length, to.length) >= 8 ? 2 : 1;
  // The plural fold may have taken an s that the typo moved ("across" / "acrsos" -> "acrso").
  const d = Math.min(editDistance(from, to, max), editDistance(`${from}s`, to, max), editDistance(from, `${to}s`, max));
  return d <= max ? 'spelling' : null;
}

/** How many of the sorted, distinct `a` are not in the sorted, distinct `b`. */
function outside(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length) {
    if (j >= b.length || a[i] < b[j]) {
      n++;
      i++;
    } else if (a[i] === b[j]) {
      i++;
      j++;
    } else j++;
  }
  return n;
}

/** The rule: whether two heads are one subject, and the edits between them. */
export function compareSubjects(a: SubjectHead, b: SubjectHead): SubjectMatch {
  // A head of function words only is its own text: nothing to spell or correct (and its index key is the whole text).
  if (a.content.length === 0 || b.content.length === 0) {
    const same = a.tokens.join(' ') === b.tokens.join(' ');
    return same ? { same, cost: 0, edits: [] } : { same, cost: 0, edits: [], reason: 'no subject words' };
  }
  // Necessary condition, cheap: at most MAX_SUBSTITUTIONS content words of either are not in the other.
  if (outside(a.content, b.content) > MAX_SUBSTITUTIONS || outside(b.content, a.content) > MAX_SUBSTITUTIONS) {
    return { same: false, cost: 0, edits: [], reason: 'more than two subject words differ' };
  }
  const ops = myers(a.tokens, b.tokens);
  const edits: SubjectEdit[] = [];
  let i = 0;
  let j = 0;
  let del: string[] = [];
  let ins: string[] = [];
  let reason: string | undefined;
  let functionEdits = 0;
  let substitutions = 0;
  const flush = () => {
    if (del.length === 0 && ins.length === 0) return;
    const dc = del.filter((t) => !FUNCTION_WORDS.has(t));
    const ic = ins.filter((t) => !FUNCTION_WORDS.has(t));
    const df = del.length - dc.length + ins.length - ic.length;
    if (df > 0) {
      functionEdits += df;
      edits.push({
        kind: 'function-word',
        from: del.filter((t) => FUNCTION_WORDS.has(t)).join(' '),
        to: ins.filter((t) => FUNCTION_WORDS.has(t)).join(' '),
      });
    }
    if (dc.length === ic.length) {
      for (let k = 0; k < dc.length; k++) {
        const kind = substitution(dc[k], ic[k]);
        if (kind === null) {
          reason ??= `"${dc.join(' ')}" -> "${ic.join(' ')}"`;
          edits.push({ kind: 'content', from: dc[k], to: ic[k] });
        } else {
          substitutions++;
          edits.push({ kind, from: dc[k], to: ic[k] });
        }
      }
    } else {
      reason ??= `"${dc.join(' ')}" -> "${ic.join(' ')}"`;
      edits.push({ kind: 'content', from: dc.join(' '), to: ic.join(' ') });
    }
    del = [];
    ins = [];
  };
  for (const op of ops) {
    if (op === '=') {
      flush();
      i++;
      j++;
    } else if (op === '-') del.push(a.tokens[i++]);
    else ins.push(b.tokens[j++]);
  }
  flush();
  const smaller = Math.min(a.content.length, b.content.length);
  if (reason === undefined && substitutions > Math.min(MAX_SUBSTITUTIONS, smaller - 1))
    reason = `${substitutions} words respelt`;
  if (reason === undefined && functionEdits > MAX_FUNCTION_EDITS) reason = `${functionEdits} function words changed`;
  return {
    same: reason === undefined,
    cost: functionEdits + 2 * substitutions,
    edits,
    ...(reason === undefined ? {} : { reason }),
  };
}

/**
 * The best cluster for a head among candidates that match it: the fewest changed tokens, ties to
 * the smaller cluster id, so the choice never depends on the order candidates were found in (and
 * a caption that would bridge two clusters joins one of them, it never merges them).
 */
export function pickSubjectCluster<T extends { clusterId: string; match: SubjectMatch }>(
  scored: readonly T[],
): T | null {
  let best: T | null = null;
  for (const s of scored) {
    if (!s.match.same) continue;
    if (
      best === null ||
      s.match.cost < best.match.cost ||
      (s.match.cost === best.match.cost && s.clusterId < best.clusterId)
    )
      best = s;
  }
  return best;
}

/** How the member's background compares with its canonical's, for the record's explanation. */
export function backgroundRelation(
  canonical: CaptionParts,
  member: CaptionParts,
): 'same' | 'appended' | 'dropped' | 'changed' | 'none' {
  const a = canonical.sentences.slice(1).map((s) => comparisonTokens(s).join(' '));
  const b = member.sentences.slice(1).map((s) => comparisonTokens(s).join(' '));
  if (a.length === 0 && b.length === 0) return 'none';
  if (a.join('\n') === b.join('\n')) return 'same';
  const inA = new Set(a);
  const inB = new Set(b);
  if (a.every((s) => inB.has(s))) return 'appended';
  if (b.every((s) => inA.has(s))) return 'dropped';
  return 'changed';
}
