import { compileRules } from '../credits/compileRules';
import { findBoilerplate, type BoilerplateRules } from './boilerplate';
import { defaultCreditRules, type CreditRules } from '../credits/rules';
import { disjoint, findCounterAndTitle, findNoise, type Removal } from './captionNoise';
import { findCreditTailStart } from './findCreditTail';
import { maskText } from './normalizeText';
import { readCaptionDate, type Dateline } from './readDate';

export type { Dateline } from './readDate';

export interface CleanedCaption {
  /** The caption with the parts below removed, quotes straight and spaces single. */
  caption: string;
  /** What was removed, in caption order, each as received: kind is credit-tail, publisher-suffix, counter, title, story-ref, tags, editor-note, file-marker or restrictions. */
  removed: Array<{ kind: string; text: string }>;
  /** The credit as received, from its start to the end of the caption (with a trailing "(credit:...)", tags or editors' note), or null. */
  creditTail: string | null;
  /** ISO date (YYYY-MM-DD) the caption gives for the picture, or null. */
  dateCreated: string | null;
  dateline: Dateline | null;
}

export interface CleanCaptionOptions {
  /** The item's title from the feed, removed when the caption repeats it on its own first line. */
  title?: string;
  /** The credit rules in force (agency names start credit tails); the shipped defaults when omitted. */
  rules?: CreditRules;
  /** The wire-boilerplate rules in force (boilerplate-rules.json); the shipped defaults when omitted. */
  boilerplate?: BoilerplateRules;
  /** Read the caption's date and dateline (default true; false gives null for both, for callers that want only the text). */
  dates?: boolean;
}

/** Kinds that belong with the credit when they follow it, so the credit parser sees them. */
const TRAILING_CREDIT_KINDS = new Set(['publisher-suffix', 'tags', 'editor-note']);

/** The text with the removals' characters turned to spaces, so positions stay the same. */
const blank = (s: string, rs: Removal[]) => {
  let out = '';
  let pos = 0;
  for (const r of [...rs].sort((a, b) => a.start - b.start)) {
    if (r.end <= pos) continue;
    const from = Math.max(pos, r.start);
    out += s.slice(pos, from) + ' '.repeat(r.end - from);
    pos = r.end;
  }
  return out + s.slice(pos);
};

/**
 * Split a received caption into the caption a reader sees and what was removed. Only the listed
 * parts are removed; everything else stays word for word. Quotes are made straight (' and ")
 * and every run of spaces, tabs and line breaks becomes one space. Removing a marker never
 * leaves a broken sentence: "(FILES) In a file photo taken on..." keeps "In a file photo taken
 * on...", and "File photo dated 27/2/2012 of Julian Assange." becomes "Julian Assange.".
 */
export function cleanCaption(raw: string, opts: CleanCaptionOptions = {}): CleanedCaption {
  const c = compileRules(opts.rules ?? defaultCreditRules());
  const masked = maskText(raw);

  const framing = findCounterAndTitle(raw, masked, opts.title);
  const withoutFraming = blank(masked, framing);
  // Boilerplate first: on the same span its rule's kind wins.
  const noise = disjoint([
    ...framing,
    ...findBoilerplate(withoutFraming, opts.boilerplate),
    ...findNoise(withoutFraming),
  ]);
  const rest = blank(masked, noise);

  const tailStart = findCreditTailStart(rest, c);
  let removals: Removal[] = noise;
  let creditTail: string | null = null;
  if (tailStart >= 0) {
    const tailEnd = rest.trimEnd().length;
    const inside = (r: Removal) => r.start >= tailStart && r.end <= tailEnd;
    let creditEnd = tailEnd;
    for (const r of noise.filter((n) => n.start >= tailEnd)) {
      if (!TRAILING_CREDIT_KINDS.has(r.kind) || masked.slice(creditEnd, r.start).trim() !== '') break;
      creditEnd = r.end;
    }
    creditTail = raw.slice(tailStart, creditEnd).trim();
    // Notes inside the credit ("AFP PHOTO / X (credit:Getty) (Photo credit should read ...)") go with it.
    removals = [...noise.filter((r) => !inside(r)), { start: tailStart, end: tailEnd, kind: 'credit-tail' }];
  }
  const ordered = disjoint(removals);

  const { dateCreated, dateline } =
    opts.dates === false ? { dateCreated: null, dateline: null } : readCaptionDate(withoutFraming);

  return {
    caption: assemble(masked, ordered),
    removed: ordered
      .map((r) => ({ kind: r.kind, text: raw.slice(r.start, r.end).trim() }))
      .filter((r) => r.text !== ''),
    creditTail: creditTail || null,
    dateCreated,
    dateline,
  };
}

/** The kept text between removals, joined so that no space is left before punctuation. */
function assemble(masked: string, removals: Removal[]): string {
  // Pieces in an array and only their ends looked at: re-trimming and re-testing the whole text
  // joined so far at every removal was quadratic in the number of removals (test/unit/core/credits/linearity.test.ts).
  const pieces: string[] = [];
  let capitalize = false;
  const trimLast = () => {
    if (pieces.length) pieces[pieces.length - 1] = pieces[pieces.length - 1].trimEnd();
  };
  const append = (piece: string) => {
    let p = piece.replace(/ {2,}/g, ' ');
    if (!/\S/.test(p)) return;
    if (capitalize) {
      p = p.replace(/^(\s*)(\p{Ll})/u, (_m, sp: string, ch: string) => sp + ch.toUpperCase());
      capitalize = false;
    }
    if (pieces.length === 0) pieces.push(p.trimStart());
    else if (/^\s*[,.;:!?)\]]/.test(p)) {
      trimLast();
      pieces.push(p.trimStart());
    } else {
      trimLast();
      pieces.push(' ' + p.trimStart());
    }
  };
  /** The last few characters kept, spaces trimmed: enough to see a sentence end. */
  const ending = () =>
    (pieces.length > 1 ? pieces[pieces.length - 2].slice(-4) : '') +
    (pieces.length ? pieces[pieces.length - 1].slice(-8) : '');
  let pos = 0;
  for (const r of removals) {
    append(masked.slice(pos, r.start));
    if (r.capitalizeNext && (pieces.length === 0 || /[.!?]["')]?$/.test(ending().trimEnd()))) capitalize = true;
    pos = r.end;
  }
  append(masked.slice(pos));
  // A separator the credit leaned on ("... in London. -", "... |") has nothing left to separate.
  return dropTrailingSeparators(pieces.join('')).trim();
}

/** "... in London. - |" -> "... in London.": runs of " -", " |", " /" at the end, by hand (linear). */
function dropTrailingSeparators(s: string): string {
  let end = s.length;
  for (;;) {
    let j = end;
    while (j > 0 && /\s/.test(s[j - 1])) j--;
    const sepEnd = j;
    while (j > 0 && '-–—|/'.includes(s[j - 1])) j--;
    if (j === sepEnd || j === 0 || !/\s/.test(s[j - 1])) return s.slice(0, end);
    while (j > 0 && /\s/.test(s[j - 1])) j--;
    end = j;
  }
}
