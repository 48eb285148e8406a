/**
 * The edits wires actually send when they resend a caption, applied to a real caption.
 * Each edit takes the caption's cleaned body (what the caption cleaner keeps) and returns a new
 * raw caption: body edited, then any wire prefix/suffix, then a credit tail. Deterministic given
 * the random source (bench/dedup/generateCaptions.ts prng). Returns null when an edit does not
 * apply (a caption shorter than 200 characters cannot be truncated at 200, one sentence cannot
 * lose a sentence).
 */
import { prng } from './generateCaptions';

export { prng };

export const EDIT_KINDS = [
  'word-corrected',
  'misspelt',
  'word-added',
  'word-dropped',
  'adjective-added',
  'place-added',
  'sentence-appended',
  'sentence-removed',
  'prefix',
  'suffix',
  'number',
  'credit-swapped',
  'punctuation',
  'truncated-200',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

type Rnd = () => number;
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

// Replacements a desk corrects to: days, numbers, names, common nouns of wire captions.
const CORRECTIONS =
  'Monday Tuesday Wednesday Thursday Friday Saturday Sunday officers supporters protesters journalists embassy court building minister spokesman police president leader London Paris Madrid Berlin second third two three four five ten arrives leaves speaks stands gathers'.split(
    ' ',
  );
const FILLERS = 'also still again reportedly now later then there briefly'.split(' ');
const ADJECTIVES =
  'heavily guarded|crowded|rain-soaked|packed|makeshift|central|historic|main|small|large|busy|tense'.split('|');
const PLACES = [
  ', in central London',
  ' in west London',
  ', in Quito, Ecuador',
  ' in the capital',
  ', Britain',
  ' in Knightsbridge',
  ', in the city centre',
  ' near the border',
];
const APPENDED = [
  'Police said three people were arrested.',
  'The embassy declined to comment on the case.',
  'More demonstrations are planned for the weekend.',
  'The hearing continues on Friday.',
  'A decision is expected later this week.',
  'Officials did not say when talks would resume.',
  'It was not immediately clear who was responsible.',
  'The government has denied the allegations.',
];
export const PREFIXES = [
  'FILE PHOTO: ',
  'UPDATED CAPTION: ',
  'REFILE - CORRECTING SPELLING OF NAME ',
  'CORRECTED CAPTION - CORRECTS DATE ',
  'FILE - ',
  // AFP's, Reuters' and dpa's (added 2026-12-03 with their boilerplate rules).
  'TOPSHOT - ',
  'CORRECTION / ',
  'EDITORS NOTE: Graphic content / ',
  'WARNING: GRAPHIC CONTENT ',
  'BEST QUALITY AVAILABLE ',
  'THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY. ',
  'epa10734588 ',
];
export const SUFFIXES = [
  ' Picture taken with a mobile phone.',
  ' Picture taken June 21, 2012.',
  ' SEARCH "ASSANGE" FOR THIS STORY. SEARCH "WIDER IMAGE" FOR ALL STORIES.',
  ' (ADDS DETAIL)',
  ' EDITORS NOTE: THIS IMAGE WAS PROVIDED BY A THIRD PARTY.',
  ' NO USE FRANCE. NO USE SWITZERLAND.',
  ' This image was made with a slow shutter speed.',
];
const NAMES =
  'Dominic Lipinski|Leon Neal|Oli Scarff|Lefteris Pitarakis|Tim Hales|Carl Court|Luke MacGregor|Mario Anzuoni|Paul Chiasson|Martin Rickett'.split(
    '|',
  );
export const CREDITS: Array<(r: Rnd) => string> = [
  (r) => `Photo credit: ${pick(r, NAMES)}/PA`,
  (r) => `(AP Photo/${pick(r, NAMES)}) (credit:AP)`,
  (r) => {
    const n = pick(r, NAMES).toUpperCase();
    return `AFP PHOTO / ${n} (Photo credit should read ${n}/AFP/Getty Images) (credit:Getty)`;
  },
  (r) => `(Photo by ${pick(r, NAMES)}/Getty Images) (credit:Getty)`,
  (r) => `REUTERS/${pick(r, NAMES)}`,
];

/** Word spans of a text: [start, end) of each run of non-spaces. */
function wordSpans(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** Indexes of plain lower-case words of at least `min` letters (safe to edit without touching names). */
function plainWords(text: string, spans: Array<[number, number]>, min: number): number[] {
  return spans
    .map(([s, e], i) => (new RegExp(`^[a-z]{${min},}$`).test(text.slice(s, e)) ? i : -1))
    .filter((i) => i >= 0);
}

function replaceSpan(text: string, [s, e]: [number, number], by: string): string {
  return text.slice(0, s) + by + text.slice(e);
}

/** Sentences: split after ". " when the next character is upper case (keeps "Aug. 30" mostly together). */
export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?]["”’]?)\s+(?=["“]?[A-Z])/).filter((s) => s.trim() !== '');
}

function pluralise(text: string): string | null {
  // "A masked supporter of X sits" -> "Masked supporters of X sit"; first "a <noun>" otherwise.
  const m = /(^|\s)(A|a|An|an) ((?:[a-z]+ )?)([a-z]{3,})\b/.exec(text);
  if (!m) return null;
  const lead = m[1];
  const start = m.index;
  const adj = m[3];
  const noun = m[4];
  const plural = /(s|x|ch|sh)$/.test(noun)
    ? `${noun}es`
    : /[^aeiou]y$/.test(noun)
      ? `${noun.slice(0, -1)}ies`
      : `${noun}s`;
  const cap = m[2][0] === 'A' ? (s: string) => s[0].toUpperCase() + s.slice(1) : (s: string) => s;
  const replaced = `${lead}${cap(adj + plural)}`;
  let rest = text.slice(start + m[0].length);
  // The first verb in -s within the next few words loses its s.
  rest = rest.replace(/^((?:\s+\S+){0,5}?\s+)(is|was|has|[a-z]{3,}[^s\W]s)\b/, (_x, pre: string, verb: string) => {
    const v =
      verb === 'is'
        ? 'are'
        : verb === 'was'
          ? 'were'
          : verb === 'has'
            ? 'have'
            : verb
                .replace(/(?<=[^aeiou])ies$/, 'y')
                .replace(/(?<=(?:ch|sh|ss|x))es$/, '')
                .replace(/s$/, '');
    return pre + v;
  });
  return text.slice(0, start) + replaced + rest;
}

function punctuation(r: Rnd, text: string): string {
  let t = text.replace(/'/g, '\u2019').replace(/"([^"]*)"/g, '\u201c$1\u201d');
  t = t.replace(/, /g, (m) => (r() < 0.4 ? ' ' : m));
  if (r() < 0.5) t = t.replace(/ /, '  ');
  if (r() < 0.5) t = t.replace(/\.$/, '');
  // One word re-cased, or (since 2026-12-03, when the cleaner stopped reading an all-caps caption
  // as its credit tail) the whole caption in capitals, as some desks resend it.
  if (r() < 0.5) t = t.replace(/\b([a-z])([a-z]+)/, (_m, a: string, b: string) => a.toUpperCase() + b);
  else if (r() < 0.3) t = t.toUpperCase();
  return t === text ? `${text.replace(/\.$/, '')} .` : t;
}

/**
 * The edited body for one kind, or null when the kind does not apply to this caption.
 * `body` is the cleaned caption, `creditTail` the credit as received (null when none).
 */
export function applyEdit(r: Rnd, kind: EditKind, body: string, creditTail: string | null): string | null {
  const spans = wordSpans(body);
  const credit = creditTail ?? pick(r, CREDITS)(r);
  const withCredit = (b: string, c = credit) => `${b} ${c}`;
  switch (kind) {
    case 'word-corrected': {
      const idx = plainWords(body, spans, 3);
      if (idx.length === 0) return null;
      const i = pick(r, idx);
      const cur = body.slice(...spans[i]);
      let by = pick(r, CORRECTIONS);
      if (by.toLowerCase() === cur) by = 'the';
      return withCredit(replaceSpan(body, spans[i], by));
    }
    case 'misspelt': {
      const idx = plainWords(body, spans, 5);
      if (idx.length === 0) return null;
      const i = pick(r, idx);
      const w = body.slice(...spans[i]);
      const at = 1 + Math.floor(r() * (w.length - 2));
      const typo = r() < 0.5 ? w.slice(0, at) + w.slice(at + 1) : w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2);
      return withCredit(replaceSpan(body, spans[i], typo === w ? w.slice(1) : typo));
    }
    case 'word-added': {
      if (spans.length < 3) return null;
      const i = 1 + Math.floor(r() * (spans.length - 1));
      return withCredit(`${body.slice(0, spans[i][0])}${pick(r, FILLERS)} ${body.slice(spans[i][0])}`);
    }
    case 'word-dropped': {
      if (spans.length < 4) return null;
      const i = 1 + Math.floor(r() * (spans.length - 1));
      return withCredit(body.slice(0, spans[i][0]) + body.slice(spans[i][1]).replace(/^\s+/, ''));
    }
    case 'adjective-added': {
      const at = [...body.matchAll(/\b(the|a|an) (?=[a-zA-Z])/g)];
      if (at.length === 0) return null;
      const m = pick(r, at);
      const p = m.index! + m[0].length;
      const adj = pick(r, ADJECTIVES);
      return withCredit(`${body.slice(0, p)}${adj} ${body.slice(p)}`);
    }
    case 'place-added': {
      const first = /[.!?](\s|$)/.exec(body);
      const p = first ? first.index : body.length;
      return withCredit(body.slice(0, p) + pick(r, PLACES) + body.slice(p));
    }
    case 'sentence-appended':
      return withCredit(`${body.replace(/\s*$/, '')}${/[.!?]$/.test(body.trim()) ? '' : '.'} ${pick(r, APPENDED)}`);
    case 'sentence-removed': {
      const ss = sentences(body);
      if (ss.length < 2) return null;
      // Wires cut the last sentence most often; sometimes one in the middle.
      const i = ss.length > 2 && r() < 0.3 ? 1 + Math.floor(r() * (ss.length - 2)) : ss.length - 1;
      const kept = ss.filter((_s, k) => k !== i).join(' ');
      // What is left must still be a caption: at least 8 words ("Julian Assange." is not).
      return wordSpans(kept).length < 8 ? null : withCredit(kept);
    }
    case 'prefix':
      return withCredit(pick(r, PREFIXES) + body);
    case 'suffix':
      // Wires add these after the caption's last sentence.
      return withCredit(body.replace(/\s*$/, '') + (/[.!?)"]$/.test(body.trim()) ? '' : '.') + pick(r, SUFFIXES));
    case 'number': {
      const p = pluralise(body);
      return p === null || p === body ? null : withCredit(p);
    }
    case 'credit-swapped': {
      let c = pick(r, CREDITS)(r);
      if (c === creditTail) c = `Photo credit: ${pick(r, NAMES)}/PA`;
      return withCredit(body, c);
    }
    case 'punctuation':
      return withCredit(punctuation(r, body));
    case 'truncated-200':
      // Feeds cut a long caption at 200 characters, credit and all, often mid-word.
      return body.length <= 220 ? null : body.slice(0, 200);
  }
}
