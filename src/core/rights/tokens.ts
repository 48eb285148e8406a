/**
 * The word scanner every rights, release and kill rule reads through. One pass over the text,
 * no regular expression over the whole input (every pattern that sees input must be linear): rules are then matched token by token (see phraseMatcher.ts), so a 100,000-character
 * field costs the same per character in any script (test/unit/core/rights/linearity.test.ts).
 */

export interface Token {
  /** Folded for matching: upper case, diacritics removed (Ä → A, ß → SS), "U.S." → "US". */
  norm: string;
  /** Offsets in the original text (UTF-16 code units), end exclusive. */
  start: number;
  end: number;
  /** A hard break (. ; : , ! ? / brackets, quotes, a line break, a dash between spaces) before this token, or it is the first. */
  breakBefore: boolean;
  /** Punctuation between the previous token and this one, spaces removed, at most 4 characters ("", ":", ",", "-"). */
  sep: string;
  /** No lower-case letter in the original word (caseless scripts count as upper case). */
  upper: boolean;
}

const HARD_BREAKS = new Set([
  '.',
  ';',
  ':',
  ',',
  '!',
  '?',
  '/',
  '\\',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '<',
  '>',
  '|',
  '"',
  '+',
  '=',
  '*',
  '#',
  '~',
  '\n',
  '\r',
  '\u2022',
  '\u00B7',
  '\u2013',
  '\u2014',
  '\u201C',
  '\u201D',
  '\u201E',
  '\u00AB',
  '\u00BB',
  '\u2026',
]);
const MAX_SEP = 4;
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const MARKS = /\p{M}/gu;

/** Per BMP code point: 0 not yet known, 1 word character, 2 not. Filled as text is read. */
const bmpClass = new Int8Array(0x10000);

function isWordCode(c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c < 0x10000) {
    let k = bmpClass[c];
    if (k === 0) bmpClass[c] = k = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    return k === 1;
  }
  return WORD_CHAR.test(String.fromCodePoint(c));
}

function isSpace(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 0xa0 ||
    c === 0x200b ||
    c === 0x2060 ||
    c === 0xfeff ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x202f ||
    c === 0x3000
  );
}

/** Upper case without diacritics: how rules and text are compared. */
export function fold(word: string): string {
  return ASCII.test(word) ? word.toUpperCase() : word.normalize('NFD').replace(MARKS, '').toUpperCase();
}
const ASCII = /^[\x00-\x7F]*$/;

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** At `at`: a dot, one ASCII letter, then no further letter or digit (".S" of "U.S."). */
function isAbbreviationStep(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 46 || !isAsciiLetter(text.charCodeAt(at + 1))) return false;
  const after = text.charCodeAt(at + 2);
  return Number.isNaN(after) || !isWordCode(after);
}

/**
 * Split a text into words. Letters, digits and combining marks make words; everything else
 * separates them. Single letters joined by dots ("U.S.", "a.m.") make one word, the last dot
 * included, so "U.S. OUT" reads as two words without a break between them.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  let sep = '';
  let hard = true;
  let spaceRun = false;
  let dashPending = false;
  while (i < n) {
    const c = text.codePointAt(i)!;
    const width = c > 0xffff ? 2 : 1;
    if (!isWordCode(c)) {
      if (isSpace(c)) {
        if (dashPending) hard = true; // "word - word": a dash between spaces is a break
        dashPending = false;
        spaceRun = true;
      } else {
        const ch = String.fromCodePoint(c);
        if (HARD_BREAKS.has(ch)) hard = true;
        else if (ch === '-' || ch === '\u2010' || ch === '\u2011') {
          if (spaceRun || sep.endsWith('-')) dashPending = true;
        }
        if (sep.length < MAX_SEP) sep += ch;
        spaceRun = false;
      }
      i += width;
      continue;
    }
    if (dashPending) hard = true; // " -word" after a space
    // A word: letters, digits and marks.
    const start = i;
    while (i < n) {
      const d = text.codePointAt(i)!;
      if (!isWordCode(d)) break;
      i += d > 0xffff ? 2 : 1;
    }
    let end = i;
    let norm: string;
    // "U.S.", "U.S.A.", "a.m.": single ASCII letters each followed by a dot make one word.
    if (end - start === 1 && isAsciiLetter(c) && isAbbreviationStep(text, end)) {
      let letters = text[start];
      let j = end;
      while (isAbbreviationStep(text, j)) {
        letters += text[j + 1];
        j += 2;
      }
      if (text.charCodeAt(j) === 46) j++; // the closing dot
      end = j;
      i = j;
      norm = letters.toUpperCase();
    } else {
      norm = fold(text.slice(start, end));
    }
    const raw = text.slice(start, end);
    tokens.push({
      norm,
      start,
      end,
      breakBefore: hard || tokens.length === 0,
      sep,
      upper: raw === raw.toUpperCase(),
    });
    sep = '';
    hard = false;
    spaceRun = false;
    dashPending = false;
  }
  return tokens;
}

/** The original text of tokens [from, to). */
export function spanText(text: string, tokens: readonly Token[], from: number, to: number): string {
  if (from >= to) return '';
  return text.slice(tokens[from].start, tokens[to - 1].end);
}

/** Every token of [from, to) upper case in the original. */
export function allUpper(tokens: readonly Token[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!tokens[k].upper) return false;
  return true;
}
