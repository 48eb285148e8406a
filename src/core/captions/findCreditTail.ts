import type { CompiledRules } from '../credits/compileRules';
import { parseCreditText } from '../credits/parseCreditText';

/** Where a credit can start: a credit label, "©", or an agency-first credit ("REUTERS/", "AFP PHOTO /"). */
const MARKERS =
  /(?:\(\s*)?(?:\b(?:(?:photo|picture|pic|image)s?\s+credits?\b|credit\s+image\s*:|mandatory\s+credit\b|credits?\s*:|(?:photo(?:graph)?s?|pictures?|images?|pics?)\s+by\b|(?:photo(?:graph)?|picture|pic|foto|illustration)\s*:|courtesy\s+of\b)|©)/gi;

/**
 * A credit in capitals that ends the caption with the word PHOTO ("HEALY RACING PHOTO", "SPORTSFILE
 * PHOTOS"): up to four words, each bounded, anchored at the end.
 */
const CAPS_PHOTO_END =
  /(?<![\p{L}\d'&.-])(?:\p{Lu}[\p{Lu}\d'&.-]{1,30}\s{1,3}){1,4}(?:PHOTOS?|PHOTOGRAPHY|FOTOS?)\.?\s*$/u;

/** Abbreviations after which a full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'jr',
  'sr',
  'gen',
  'col',
  'lt',
  'sgt',
  'rep',
  'sen',
  'gov',
  'prof',
  'no',
  'vs',
  'u.s',
  'u.k',
  'jan',
  'feb',
  'aug',
  'sept',
  'sep',
  'oct',
  'nov',
  'dec',
]);

const CREDIT_WORDS = new Set([
  'via',
  'for',
  'by',
  'of',
  'the',
  'and',
  'from',
  'photo',
  'photos',
  'picture',
  'pictures',
  'pic',
  'credit',
  'credits',
  'should',
  'read',
  'image',
  'images',
  'file',
  'files',
  'pool',
  'handout',
  'courtesy',
  'press',
  'wire',
  'news',
  'staff',
  'mandatory',
  'copyright',
  'all',
  'rights',
  'reserved',
  'editorial',
  'use',
  'only',
  'no',
  'sales',
  'resales',
  'archives',
  'out',
  'agency',
  'photographer',
  'foto',
  'fotos',
  'el',
  'et',
  'und',
]);

/**
 * Where the last prose word ends: a lower-case word that is neither credit vocabulary, a name
 * particle nor an organisation name. A credit tail cannot start before it.
 */
function lastProseEnd(text: string, c: CompiledRules): number {
  let last = -1;
  for (const m of text.matchAll(/(?<![\p{L}\d])\p{Ll}[\p{Ll}'-]+(?![\p{L}\d])/gu)) {
    const w = m[0];
    if (CREDIT_WORDS.has(w) || c.particles.has(w) || c.orgWords.has(w) || c.orgs.has(w)) continue;
    last = m.index + w.length;
  }
  return last;
}

/** Sentence starts: after ". ", "! ", "? " that do not follow an initial or an abbreviation. */
function sentenceStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(/[.!?]["')\]]?\s+/g)) {
    const before = text.slice(Math.max(0, m.index - 6), m.index);
    const word = /([\p{L}.]+)$/u.exec(before)?.[1] ?? '';
    if (word.length === 1 || ABBREVIATIONS.has(word.toLowerCase())) continue;
    starts.push(m.index + m[0].length);
  }
  return starts;
}

/** At least this many words in a sentence without credit punctuation or label make it prose. */
const PROSE_WORDS = 6;

function isProseSentence(sentence: string): boolean {
  if (/[/©]|\bvia\b|\b(?:photo(?:graph)?|picture|image)s?\s+by\b/i.test(sentence)) return false;
  return sentence.trim().split(/\s+/).length >= PROSE_WORDS;
}

/**
 * Where the credit tail of a caption starts, in `text` (a caption with its other removable parts
 * already blanked out), or -1. The earliest candidate wins whose text to the end reads as a
 * credit: no prose, and the credit parser recognises an agency or a credited person in it.
 */
export function findCreditTailStart(text: string, c: CompiledRules): number {
  const end = text.trimEnd().length;
  if (end === 0) return -1;
  // Prose cannot be inside a credit, so only the text after the last prose word is searched.
  const from = Math.max(0, lastProseEnd(text.slice(0, end), c));
  const region = text.slice(from, end);
  const candidates = new Map<number, boolean>(); // start -> has an explicit marker
  for (const m of region.matchAll(MARKERS)) candidates.set(from + m.index, true);
  const capsPhoto = CAPS_PHOTO_END.exec(region);
  if (capsPhoto) candidates.set(from + capsPhoto.index, true);
  c.agencyFirst.lastIndex = 0;
  for (const m of region.matchAll(c.agencyFirst)) {
    const at = from + m.index;
    candidates.set(text[at - 1] === '(' ? at - 1 : at, true);
  }
  for (let i = from; i < end; i++) if (text[i] === '(' && !candidates.has(i)) candidates.set(i, false);
  const starts = sentenceStarts(text);
  for (const s of starts) if (s >= from && s < end && !candidates.has(s)) candidates.set(s, false);
  if (from === 0 && !candidates.has(0)) candidates.set(0, false);

  const ordered = [...candidates.keys()].filter((s) => s >= from).sort((a, b) => a - b);
  // First pass: a tail the parser reads completely. Second: one it only partly reads, which is
  // still removed from the caption and gives a low-confidence credit.
  for (const strict of [true, false]) {
    let next = 0; // the first sentence start after the candidate (both ascending: linear)
    for (const start of ordered) {
      // Length first, without copying: slicing every candidate to the end was quadratic in the
      // number of sentence starts (test/unit/core/credits/linearity.test.ts).
      let from = start;
      while (from < end && /\s/.test(text[from])) from++;
      if (from >= end || end - from > 400) continue;
      const tail = text.slice(from, end);
      while (next < starts.length && starts[next] <= from) next++;
      // A caption in capitals has no prose word to stop at: its first sentence, six words or more
      // with no "/", "©", "via" or "photo by", is the caption, not a credit ("A MASKED SUPPORTER
      // ... IN LONDON. Photo credit: X/PA" came out empty before 2026-12-03).
      if (
        !candidates.get(start) &&
        next < starts.length &&
        starts[next] < end &&
        isProseSentence(text.slice(from, starts[next]))
      )
        continue;
      // "U.S. Navy photo by X" at a sentence start: an organisation's own label.
      const marked = candidates.get(start)! || /^\S.{0,120}?\s(?:photo(?:graph)?|picture|image)s?\s+by\s/i.test(tail);
      // Without a label, a credit is a chain of names and organisations: "Tim Ireland/REX Shutterstock".
      const chain = /[/©]|\svia\s/i.test(tail);
      // "(AP Photo)", "(Getty Images)": a bracket holding nothing but an agency the rules know.
      const bracketed = /^\([^()]*\)$/.test(tail);
      if (!marked && !chain && !bracketed) continue;
      const parsed = parseCreditText(tail, c);
      if (!parsed.recognised || (strict && parsed.unknown.length > 0)) continue;
      if (!marked && !chain && !(parsed.agency?.id && parsed.unknown.length === 0 && parsed.creators.length === 0))
        continue;
      if (marked ? parsed.agency || parsed.creators.length > 0 : parsed.agency) return start;
    }
  }
  return -1;
}
