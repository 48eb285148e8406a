/**
 * Trimming by hand. A pattern such as /[\s)]+$/ is not anchored at its start, so the regex
 * engine tries it at every character of a long run of those characters and rescans the run
 * each time: quadratic in the run (attack 4; test/unit/core/credits/linearity.test.ts).
 * These walk the string once, by code point, so a letter outside the BMP is one character.
 */

/** `s` without the characters `drop` accepts at its start. */
export function trimStartWhere(s: string, drop: (ch: string) => boolean): string {
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (!drop(ch)) break;
    i += ch.length;
  }
  return i === 0 ? s : s.slice(i);
}

/** `s` without the characters `drop` accepts at its end. */
export function trimEndWhere(s: string, drop: (ch: string) => boolean): string {
  let j = s.length;
  while (j > 0) {
    const low = s.charCodeAt(j - 1);
    const pair =
      j >= 2 && low >= 0xdc00 && low <= 0xdfff && s.charCodeAt(j - 2) >= 0xd800 && s.charCodeAt(j - 2) <= 0xdbff;
    const ch = pair ? s.slice(j - 2, j) : s[j - 1];
    if (!drop(ch)) break;
    j -= ch.length;
  }
  return j === s.length ? s : s.slice(0, j);
}

/** A predicate true for the characters of `chars` and, with `spaces`, for whitespace. */
export function charSet(chars: string, spaces = false): (ch: string) => boolean {
  const set = new Set(chars);
  return spaces ? (ch) => set.has(ch) || /^\s$/.test(ch) : (ch) => set.has(ch);
}
