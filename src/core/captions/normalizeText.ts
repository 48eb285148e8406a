/**
 * Text normalization shared by captions and credits. Quotes become straight ASCII quotes
 * (' and "): wires mix curly and straight quotes in the same story, and straight ones are what
 * search and duplicate detection compare. Every kind of space, tab and line break becomes one
 * space. Each replacement is one character for one character, so positions found in the
 * normalized text are positions in the received text too.
 */
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/g;
// \s covers NBSP, U+2000-U+200A, U+2028/9, U+202F, U+205F, U+3000 and U+FEFF; add the zero-width ones.
const SPACES = /[\s\u200B\u200C\u200D\u2060]/g;

/** Same length as the input: quotes straightened, every space-like character a plain space. */
export function maskText(raw: string): string {
  return raw.replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(SPACES, ' ');
}

/** Quotes straightened and runs of space collapsed, trimmed. */
export function normalizeText(raw: string): string {
  return maskText(raw).replace(/ {2,}/g, ' ').trim();
}
