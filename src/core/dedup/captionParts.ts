import { cleanCaption } from '../captions/cleanCaption';
import { findDates } from '../captions/readDate';
import { decodeReferences } from '../feeds/xml/xmlEntities';

/**
 * A wire caption in the parts a picture desk reads it by:
 * - `slug`: the agency's structured head, "Soccer Football - Premier League - Arsenal v Chelsea -
 *   Emirates Stadium, London, Britain - March 4, 2024" (Reuters sport), shared by every picture of
 *   one match; null when the caption has none.
 * - `dateline`: Getty's "LONDON, ENGLAND - MAY 30" head, null when none.
 * - `subject`: the first sentence after them: who or what is in this frame, where, when.
 * - `background`: the other sentences, shared by a whole assignment (the seed's embassy paragraph).
 *
 * Everything is read from the caption after the normalisation every resend gets: HTML character
 * references and tags, UTF-8 read as cp1252, then the caption cleaner (REFILE/CORRECTION/UPDATED
 * prefixes with their reasons, credit tails of every agency, FILE tails, editors' notes).
 */
export interface CaptionParts {
  /** The normalised caption the parts were cut from (what a reader sees). */
  text: string;
  subject: string;
  background: string;
  slug: string | null;
  dateline: string | null;
  /** The sentences after the slug and dateline, the subject first. */
  sentences: string[];
}

/** Most characters read from a caption: feed captions are capped at 10,000 on input already. */
export const MAX_PARTS_INPUT = 10_000;

// cp1252's 0x80-0x9f, where it differs from Latin-1: UTF-8 bytes read as cp1252 show these.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const CP1252_BYTE = new Map<string, number>([...CP1252_HIGH].map((ch, i) => [ch, 0x80 + i]));
const CONT = `[\u0080-\u00bf${CP1252_HIGH}]`;
/** One UTF-8 sequence of 2-4 bytes shown as cp1252 characters: a lead byte (Â-ô) and its continuation bytes. */
const MOJIBAKE = new RegExp(`[\u00c2-\u00df]${CONT}|[\u00e0-\u00ef]${CONT}{2}|[\u00f0-\u00f4]${CONT}{3}`, 'g');
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * UTF-8 text that was decoded as cp1252 ("â€œParisâ€\u009d" for "“Paris”"), decoded again, one
 * character at a time: each run of a lead byte and its continuation bytes that is valid UTF-8.
 * Real Latin-1 text ("Zürich", "Ñandú") has no such runs (a lead byte is never followed by a
 * continuation byte in French, German or Spanish words), so it stays as it is.
 */
export function fixMojibake(s: string): string {
  return s.replace(MOJIBAKE, (seq) => {
    const bytes = new Uint8Array(seq.length);
    for (let i = 0; i < seq.length; i++) {
      const c = seq.charCodeAt(i);
      const b = c < 0x100 ? c : CP1252_BYTE.get(seq[i]);
      if (b === undefined) return seq;
      bytes[i] = b;
    }
    try {
      return UTF8.decode(bytes);
    } catch {
      return seq;
    }
  });
}

const TAG = /<\/?(?:p|br|div|span|b|i|em|strong|font|a)\b[^<>]{0,200}>/gi;

/** HTML character references, HTML tags (a tag that ends a paragraph ends a sentence) and mojibake. */
export function decodeCaptionText(raw: string): string {
  let s = raw.length > MAX_PARTS_INPUT ? raw.slice(0, MAX_PARTS_INPUT) : raw;
  // Twice: "&amp;nbsp;" is a reference encoded once more by a CMS, as common as the plain one.
  s = decodeReferences(decodeReferences(s));
  s = s.replace(/<\/p>\s*<p\b[^<>]{0,200}>/gi, ' ').replace(TAG, ' ');
  return fixMojibake(s);
}

/** The caption as every comparison reads it: decoded, then cleaned by the caption cleaner. */
export function normalizeCaption(raw: string): string {
  // Only the text: the cluster rule does not use the caption's date, so it is not read here (docs/DEDUP.md "Measured").
  return cleanCaption(decodeCaptionText(raw), { dates: false }).caption;
}

const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?';
/** A slug field: no sentence end, at most 120 characters. */
const FIELD = '[^.!?\\n]{1,120}?';
/**
 * Reuters' sports slug: "<Sport> - <field> - ... - <date>" with two to six fields, the last a date
 * ("March 4, 2024" or "4 March 2024"), then the subject. Older Reuters sport captions end the slug
 * with ". " or " - " after the date; newer ones with a plain space.
 */
const SPORT_SLUG = new RegExp(
  `^([A-Z][A-Za-z&'/ ]{1,40}(?: - ${FIELD}){1,5} - (?:${MONTH} \\d{1,2},? \\d{4}|\\d{1,2} ${MONTH},? \\d{4}))(?:\\s*[-.:]\\s+|\\s+|$)`,
  'i',
);
/** Getty's dateline: "LONDON, ENGLAND - MAY 30: ". */
const DATELINE = new RegExp(
  `^([A-Z][A-Z .'-]{1,40}(?:, [A-Z][A-Z .'-]{1,40}){0,2} - ${MONTH.toUpperCase()} \\d{1,2}(?:, \\d{4})?):\\s+`,
);

// Words a sentence never ends on: titles, initials' neighbours, months, "No.", "St.", "U.S.".
const NO_END = new Set(
  (
    'mr mrs ms dr st mt ft gen col lt sgt capt cpt gov sen rep rev prof jr sr no nos vs v approx est dept inc ltd co corp ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec fig ave blvd rd p pp ca'
  ).split(' '),
);

/**
 * Sentences of a caption: a sentence ends at ".", "!" or "?" (and closing quotes or brackets)
 * followed by a space and a capital, a digit or an opening quote, except after a title
 * ("Mr."), an abbreviation with inner dots ("U.S."), a single capital (an initial) or a
 * month ("Aug. 30").
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /[.!?]["')\]]*\s+(?=["'(\[]?[\p{Lu}\p{N}])/gu;
  for (const m of text.matchAll(re)) {
    const before = text.slice(start, m.index);
    const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1] ?? '';
    if (text[m.index] === '.') {
      if (NO_END.has(lastWord.toLowerCase())) continue;
      if (/^\p{Lu}$/u.test(lastWord)) continue; // an initial: "George W. Bush"
      if (/\p{L}\.\p{L}/u.test(lastWord)) continue; // "U.S." as the last word
    }
    const sentence = text.slice(start, m.index + m[0].trimEnd().length).trim();
    if (sentence !== '') out.push(sentence);
    start = m.index + m[0].length;
  }
  const last = text.slice(start).trim();
  if (last !== '') out.push(last);
  return out;
}

/** Parts of a caption already normalised (normalizeCaption's output). */
export function partsOfNormalized(text: string): CaptionParts {
  let rest = text;
  let slug: string | null = null;
  let dateline: string | null = null;
  const sm = SPORT_SLUG.exec(rest);
  // The last field must really be a date (findDates reads it), and something must follow.
  if (sm && findDates(sm[1]).length > 0) {
    slug = sm[1].trim();
    rest = rest.slice(sm[0].length);
  } else {
    const dm = DATELINE.exec(rest);
    if (dm) {
      dateline = dm[1];
      rest = rest.slice(dm[0].length);
    }
  }
  const sentences = splitSentences(rest);
  return {
    text,
    subject: sentences[0] ?? '',
    background: sentences.slice(1).join(' '),
    slug,
    dateline,
    sentences,
  };
}

/**
 * Split a wire caption (as received, or already cleaned) into its subject sentence, background
 * sentences and slug, after the normalisation every resend gets (see CaptionParts).
 */
export function captionParts(text: string): CaptionParts {
  return partsOfNormalized(normalizeCaption(text));
}
