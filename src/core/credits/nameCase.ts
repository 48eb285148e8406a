import type { CompiledRules } from './compileRules';

const hasUpper = (s: string) => s !== s.toLowerCase();
const hasLower = (s: string) => s !== s.toUpperCase();

/** "STACHE" -> "Stache", "J.J." -> "J.J.": the first letter of each run of letters upper, the rest lower. */
function capitalizeRuns(s: string): string {
  // An apostrophe inside a word does not start a new one: "HALLE'N" -> "Halle'n".
  return s.replace(/\p{L}[\p{L}'’]*/gu, (run) => run[0].toUpperCase() + run.slice(1).toLowerCase());
}

/** A letter and an apostrophe followed by a letter, at a position: the "O'" of O'BRIEN. */
const LETTER_APOSTROPHE = /(\p{L})(['’])(?=\p{L})/uy;

const longest = new WeakMap<CompiledRules, number>();
function longestException(c: CompiledRules): number {
  let n = longest.get(c);
  if (n === undefined) {
    n = 0;
    for (const k of c.exceptions.keys()) n = Math.max(n, k.length);
    longest.set(c, n);
  }
  return n;
}

function casePart(whole: string, c: CompiledRules): string {
  // O'BRIEN, D'ALESSANDRO: the letter before the apostrophe and the one after it are capitals.
  // A loop, not a recursion on the rest of the word: "O'O'O'..." copied the rest at each level.
  let prefix = '';
  let at = 0;
  for (;;) {
    // Exceptions are looked up only once the rest is short enough to be one.
    if (whole.length - at <= longestException(c)) {
      const exception = c.exceptions.get(whole.slice(at).toUpperCase());
      if (exception) return prefix + exception;
    }
    LETTER_APOSTROPHE.lastIndex = at;
    const apos = LETTER_APOSTROPHE.exec(whole);
    if (!apos) return prefix + caseWord(at === 0 ? whole : whole.slice(at));
    prefix += apos[1].toUpperCase() + apos[2];
    at += apos[0].length;
  }
}

function caseWord(part: string): string {
  // MCKAY -> McKay. "Mac" is ambiguous (MACHADO, MACRON): those names live in the exceptions.
  const mc = /^MC(\p{L}{2,})$/u.exec(part.toUpperCase());
  if (mc) return 'Mc' + capitalizeRuns(mc[1]);
  return capitalizeRuns(part);
}

/**
 * A person's name in display case. Words sent in capitals are cased ("KOEN VAN WEEL" ->
 * "Koen van Weel", "DUANE A. LAVERTY" -> "Duane A. Laverty", "JEAN-PAUL" -> "Jean-Paul");
 * words already in mixed case are the photographer's own spelling and are kept ("deGooyer").
 */
export function displayCaseName(name: string, c: CompiledRules): string {
  const tokens = name.trim().split(/\s+/).filter(Boolean);
  return tokens
    .map((tok, i) => {
      if (!hasUpper(tok) || hasLower(tok)) return tok;
      const whole = c.exceptions.get(tok.toUpperCase());
      if (whole) return whole;
      const lower = tok.toLowerCase();
      // A particle only between a first name and a surname: "LE" alone or last is a surname.
      if (i > 0 && i < tokens.length - 1 && c.particles.has(lower)) return lower;
      return tok
        .split('-')
        .map((p) => (p ? casePart(p, c) : p))
        .join('-');
    })
    .join(' ');
}
