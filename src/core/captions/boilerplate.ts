import { invalidRules, invalidShippedRules, readRulesFile } from '../rulesFile';
import shipped from './boilerplate-rules.json';
import {
  boilerplateRulesSchema,
  operatorBoilerplateSchema,
  type BoilerplateRules,
  type MarkerRule,
} from './boilerplateSchema';
import type { Removal } from './captionNoise';

export type { BoilerplateRules, MarkerRule } from './boilerplateSchema';

/**
 * Wire boilerplate: the markers and notes agencies put around a caption when they resend,
 * correct or file it ("FILE PHOTO:", "REFILE - CORRECTING TYPO", "Picture taken with a mobile
 * phone.", "SEARCH "WIDER IMAGE" FOR ALL STORIES."). They are not the caption, so the cleaner
 * removes them (keeping them in `captionRemoved`) and duplicate detection never sees them.
 * The rules are data (boilerplate-rules.json, extended by PHOTOWIRE_BOILERPLATE_RULES); this file
 * turns each phrase into a pattern with bounded repetition only, tried at fixed places (the start,
 * sentence starts, word starts), so cleaning stays linear in the caption's length.
 */

let shippedRules: BoilerplateRules | undefined;

/** The rules shipped with photowire, validated once. */
export function defaultBoilerplateRules(): BoilerplateRules {
  if (!shippedRules) {
    const parsed = boilerplateRulesSchema.safeParse(shipped);
    if (!parsed.success) {
      throw invalidShippedRules(
        'BOILERPLATE_RULES',
        'boilerplate-rules.json (shipped with photowire)',
        parsed.error.issues[0],
      );
    }
    shippedRules = parsed.data;
  }
  return shippedRules;
}

/**
 * The rules in force: the shipped ones, extended by the operator's file when `path` is given (the
 * caller reads PHOTOWIRE_BOILERPLATE_RULES). A file that cannot be read, is not JSON or does not
 * match the schema is refused with its line and the reason.
 */
export function loadBoilerplateRules(path?: string): BoilerplateRules {
  const base = defaultBoilerplateRules();
  if (path === undefined || path === '') return base;
  const file = readRulesFile('BOILERPLATE_RULES', path);
  const op = operatorBoilerplateSchema.safeParse(file.value);
  if (!op.success) throw invalidRules(file, op.error.issues[0]);
  const known = new Set(base.markers.map((m) => m.name));
  const disabled = new Set(op.data.disable ?? []);
  (op.data.disable ?? []).forEach((name, i) => {
    if (!known.has(name))
      throw invalidRules(file, { code: 'custom', path: ['disable', i], message: `no shipped rule is named "${name}"` });
  });
  const replaced = new Map((op.data.markers ?? []).map((m) => [m.name, m]));
  const markers = [
    ...base.markers.filter((m) => !disabled.has(m.name)).map((m) => replaced.get(m.name) ?? m),
    ...(op.data.markers ?? []).filter((m) => !known.has(m.name)),
  ];
  return { version: `${base.version}+${op.data.version}`, markers };
}

// ---------------------------------------------------------------------------------------------
// Compiling phrases into patterns: literal text, spaces as 1-3 spaces, placeholders bounded.

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** An upper-case word: letters, digits, ' & - ; never followed by more word characters or "/". */
const CAPS_WORD = "[A-Z0-9][A-Z0-9'&-]{0,30}(?![A-Za-z0-9/'&-])";
const PLACEHOLDER_RE: Record<string, string> = {
  quoted: `(?:"[^"\\n]{1,120}"|'[^'\\n]{1,120}')`,
  caps: `${CAPS_WORD}(?: {1,3}${CAPS_WORD}){0,8}`,
};

function phrasePattern(p: string): string {
  return p
    .split(/(\{[a-z]+\})/)
    .map((part) => {
      const ph = /^\{([a-z]+)\}$/.exec(part);
      return ph ? PLACEHOLDER_RE[ph[1]] : escapeRe(part).replace(/ /g, ' {1,3}');
    })
    .join('');
}

/** Alternatives longest first, so "FILE PHOTO" is tried before "FILE". */
function alternatives(phrases: readonly string[]): string {
  return [...phrases]
    .sort((a, b) => b.length - a.length)
    .map(phrasePattern)
    .join('|');
}

const WORD_END = '(?![A-Za-z0-9])';

interface CompiledMarker {
  rule: MarkerRule;
  /** Sticky for start/sentence rules (tried at one position), global for anywhere/bracket. */
  re: RegExp;
  /** sentence rules: words that make the sentence caption text after all. */
  except?: Set<string>;
}

export interface CompiledBoilerplate {
  version: string;
  start: CompiledMarker[];
  sentence: CompiledMarker[];
  global: CompiledMarker[];
  /** rest rules: the first hit runs to the end of the caption. */
  rest: CompiledMarker[];
}

const compiledCache = new WeakMap<BoilerplateRules, CompiledBoilerplate>();

export function compileBoilerplate(rules: BoilerplateRules): CompiledBoilerplate {
  const cached = compiledCache.get(rules);
  if (cached) return cached;
  const out: CompiledBoilerplate = { version: rules.version, start: [], sentence: [], global: [], rest: [] };
  for (const rule of rules.markers) {
    const flags = rule.case === 'any' ? 'i' : '';
    const alts = alternatives(rule.phrases);
    if (rule.at === 'start') out.start.push({ rule, re: new RegExp(`(?:${alts})${WORD_END}`, `y${flags}`) });
    else if (rule.at === 'sentence') {
      const except = new Set((rule.exceptWords ?? []).map((w) => w.toLowerCase()));
      out.sentence.push({ rule, re: new RegExp(`(?:${alts})${WORD_END}`, `y${flags}`), except });
    } else if (rule.at === 'anywhere')
      out.global.push({ rule, re: new RegExp(`(?<![A-Za-z0-9])(?:${alts})${WORD_END}(?: {0,3}\\.)?`, `g${flags}`) });
    else if (rule.at === 'bracket')
      out.global.push({ rule, re: new RegExp(`\\( {0,3}(?:${alts})${WORD_END}[^()\\n]{0,300}\\)`, `g${flags}`) });
    // The notice with what introduces it: " / ", an opening quote.
    else
      out.rest.push({
        rule,
        re: new RegExp(`(?:(?<= ) {0,3}/ {0,3})?["'\u201C]?(?<![A-Za-z0-9])(?:${alts})${WORD_END}`, `g${flags}`),
      });
  }
  compiledCache.set(rules, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Finding boilerplate in a caption.

/** After a start marker: ":", " -", "--", a dash, or AFP's " / " ("CORRECTION / ", "FILE PHOTO/ "). */
const SEPARATOR = / {0,4}(?::|[-\u2013\u2014]{1,2}(?= |$)|\/(?= |$))/y;
const TRAILING_STOP = / {0,4}(?:[.:]|[-\u2013\u2014]{1,2}(?= |$)|\/(?= |$))/y;
const REASON_WORD = new RegExp(` {1,4}(${CAPS_WORD})`, 'y');
const SPACES = / */y;
/** Month names as a reason writes them ("CORRECTING DATE TO MAY 5"). */
const REASON_MONTHS = new Set(
  'JAN JANUARY FEB FEBRUARY MAR MARCH APR APRIL MAY JUN JUNE JUL JULY AUG AUGUST SEP SEPT SEPTEMBER OCT OCTOBER NOV NOVEMBER DEC DECEMBER'.split(
    ' ',
  ),
);

function stickyAt(re: RegExp, s: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(s);
}

/**
 * Whether another start marker begins at `at`, so a reason ends before it: one whose phrase is
 * followed by a separator ("UPDATED CAPTION:", "FILE PHOTO:", "TOPSHOT -").
 * A bare word that is also a marker ("CORRECTING", "REPEAT") is part of the reason:
 * "REFILE - CORRECTING DATE".
 */
function startsNextMarker(c: CompiledBoilerplate, s: string, at: number): boolean {
  for (const m of c.start) {
    const head = stickyAt(m.re, s, at);
    if (head && stickyAt(SEPARATOR, s, at + head[0].length)) return true;
  }
  return false;
}

/**
 * One start marker at `at`: phrase, separator, reason, closing stop. The reason is a run of
 * upper-case words of two or more characters; it stops before a word followed by a comma (a
 * dateline, "LONDON, ENGLAND"), an abbreviation ("U.S."), a one-letter word ("A masked...") and
 * another start marker ("REFILE - CORRECTING DATE FILE PHOTO: ...").
 */
function matchStart(c: CompiledBoilerplate, m: CompiledMarker, s: string, at: number): number {
  const head = stickyAt(m.re, s, at);
  if (!head) return -1;
  let end = at + head[0].length;
  const sep = stickyAt(SEPARATOR, s, end);
  if (sep) end += sep[0].length;
  else if (m.rule.separator === 'required') return -1;
  if (m.rule.reason) {
    /** Whether the reason's last word is a month or a number after one ("CORRECTING DATE TO MAY 5"). */
    let inDate = false;
    for (let words = 0; words < 16; words++) {
      const w = stickyAt(REASON_WORD, s, end);
      // One character is the caption's ("A masked..."), but a day after a month is the reason's.
      if (!w || (w[1].length < 2 && !(inDate && /^\d$/.test(w[1])))) break;
      const wordAt = end + w[0].length - w[1].length;
      const next = s.charAt(wordAt + w[1].length);
      if (next === ',' || (next === '.' && /[A-Za-z]/.test(s.charAt(wordAt + w[1].length + 1)))) break;
      if (startsNextMarker(c, s, wordAt)) break;
      // A number outside a date starts the caption: its own date ("01 Apr 2015, Akron") or a picture
      // number ("040621-N-6536T-062 USS Ronald Reagan"), which a reason does not carry.
      const digits = /\d/.test(w[1]);
      if (digits && !inDate) break;
      inDate = digits ? inDate : REASON_MONTHS.has(w[1]);
      end += w[0].length;
    }
    const stop = stickyAt(TRAILING_STOP, s, end);
    if (stop) end += stop[0].length;
  }
  return end;
}

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
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'approx',
  'fig',
  'inc',
  'ltd',
  'co',
  'corp',
]);

/** A note is a sentence of at most this many characters: the bound keeps finding notes linear. */
const MAX_NOTE = 600;

/** Where the sentence that starts at `from` ends (after its full stop), or -1 when none ends within MAX_NOTE characters. */
function sentenceEnd(s: string, from: number): number {
  const limit = Math.min(s.length, from + MAX_NOTE);
  for (let i = from; i < limit; i++) {
    const ch = s.charCodeAt(i);
    // AFP ends a note with " / " ("EDITORS NOTE: Graphic content / People mourn ...").
    if (ch === 0x2f && s.charCodeAt(i - 1) === 0x20 && s.charCodeAt(i + 1) === 0x20 && i > from) return i + 1;
    if (ch !== 0x2e && ch !== 0x21 && ch !== 0x3f) continue; // . ! ?
    let j = i + 1;
    while (j < s.length && (s[j] === '"' || s[j] === "'" || s[j] === ')')) j++;
    if (j < s.length && s[j] !== ' ') continue; // "3.5", "U.S.", "reuters.com"
    if (ch === 0x2e) {
      let k = i;
      while (k > from && /[A-Za-z]/.test(s.charAt(k - 1))) k--;
      const word = s.slice(k, i);
      if (word.length === 1 || ABBREVIATIONS.has(word.toLowerCase())) continue;
    }
    return j;
  }
  return -1;
}

/**
 * Where a note may start: the first text, and after every ". ", "! ", "? " (quotes and brackets
 * allowed between), even after an abbreviation: "... in Washington, U.S. Picture taken ...".
 */
function noteStarts(s: string): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < s.length && s[i] === ' ') i++;
  if (i < s.length) out.push(i);
  for (; i < s.length; i++) {
    const ch = s[i];
    if (ch !== '.' && ch !== '!' && ch !== '?') continue;
    let j = i + 1;
    while (j < s.length && (s[j] === '"' || s[j] === "'" || s[j] === ')')) j++;
    if (s[j] !== ' ') continue;
    while (j < s.length && s[j] === ' ') j++;
    if (j < s.length) out.push(j);
    i = j - 1;
  }
  return out;
}

/** A note that does not end with a full stop runs to the end only when no credit could follow it there. */
const LOOKS_LIKE_CREDIT = /[/©(]/;

/**
 * The boilerplate in `masked` (a caption with quotes and spaces normalized and its framing already
 * blanked out), as removals in text order. Positions are positions in the received caption.
 */
export function findBoilerplate(masked: string, rules: BoilerplateRules = defaultBoilerplateRules()): Removal[] {
  const c = compileBoilerplate(rules);
  const out: Removal[] = [];

  // Markers at the start, one after the other ("REFILE - CORRECTING DATE FILE PHOTO: ...").
  let at = stickyAt(SPACES, masked, 0)![0].length;
  for (let guard = 0; guard < 8 && at < masked.length; guard++) {
    let end = -1;
    let kind = '';
    for (const m of c.start) {
      end = matchStart(c, m, masked, at);
      if (end > at) {
        kind = m.rule.kind;
        break;
      }
    }
    if (end <= at) break;
    end += stickyAt(SPACES, masked, end)![0].length;
    out.push({ start: at, end, kind });
    at = end;
  }

  // Sentences that are notes ("EDITORS NOTE: ...", "Picture taken with a mobile phone.").
  if (c.sentence.length > 0) {
    for (const s of noteStarts(masked)) {
      if (s < at) continue;
      const m = c.sentence.find((x) => stickyAt(x.re, masked, s));
      if (!m) continue;
      let end = sentenceEnd(masked, s);
      if (end < 0) {
        if (masked.length - s > 240 || LOOKS_LIKE_CREDIT.test(masked.slice(s))) continue;
        end = masked.length;
      }
      if (
        m.except?.size &&
        masked
          .slice(s, end)
          .toLowerCase()
          .split(/[^\p{L}\p{N}'-]+/u)
          .some((w) => m.except!.has(w))
      )
        continue;
      out.push({ start: s, end, kind: m.rule.kind });
    }
  }

  // Phrases and bracketed notes anywhere.
  for (const m of c.global) {
    m.re.lastIndex = 0;
    for (const hit of masked.matchAll(m.re))
      out.push({ start: hit.index, end: hit.index + hit[0].length, kind: m.rule.kind });
  }
  // Notices that run to the end (the first hit of each rule).
  for (const m of c.rest) {
    m.re.lastIndex = at;
    const hit = m.re.exec(masked);
    if (hit) out.push({ start: hit.index, end: masked.length, kind: m.rule.kind });
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The kind of removed text that marks a file (archive) picture: it sets credit.flags.file. */
export const FILE_MARKER_KIND = 'file-marker';

/** Whether the cleaner removed a file marker ("FILE PHOTO:", "(FILES)", "File photo dated ... of"). */
export function removedFileMarker(removed: ReadonlyArray<{ kind: string }>): boolean {
  return removed.some((r) => r.kind === FILE_MARKER_KIND);
}
