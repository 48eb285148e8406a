import type { CompiledRules } from './compileRules';

const hasUpper = (s: string) => s !== s.toLowerCase();
const hasLower = (s: string) => s !== s.toUpperCase();

/** "STACHE" -> "Stache", "J.J." -> "J.J.": the first letter of each run of letters upper, the rest lower. */
function capitalizeRuns(s: string): string {
  // An apostrophe inside a word does not start a new one: "HALLE'N" -> "Halle'n".
  return s.replace(/\p{L}[\p{L}'’]*/gu, (run) => run[0].toUpperCase() + run.slice(1).toLowerCase());
}

function casePart(part: string, c: CompiledRules): string {
  const exception = c.exceptions.get(part.toUpperCase());
  if (exception) return exception;
  // O'BRIEN, D'ALESSANDRO: the letter before the apostrophe and the one after it are capitals.
  const apos = /^(\p{L})(['’])(\p{L}.*)$/u.exec(part);
  if (apos) return apos[1].toUpperCase() + apos[2] + casePart(apos[3], c);
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
