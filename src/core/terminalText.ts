/**
 * Text from a feed (captions, credits, file names, agency ids, error messages naming them) shown
 * on a terminal. Printed raw, `ESC]0;...BEL` retitles the terminal, `ESC[2J` clears it, a newline
 * in a file name starts a line the reader takes for photowire's own ("INFO batch done, 0 failed"),
 * and U+202E shows "gnp.exe" as "exe.png". So every character a terminal acts on instead of
 * showing is shown escaped, the way JavaScript would write it:
 *
 * - C0 controls (U+0000-U+001F, newline, CR and tab included), DEL (U+007F) and C1 controls
 *   (U+0080-U+009F, where U+009B is a one-byte CSI on some terminals): `\x1b`, `\x7f`, `\x9b`,
 *   with `\n`, `\r`, `\t` for those three;
 * - bidirectional controls: the embeddings and overrides U+202A-U+202E, the isolates
 *   U+2066-U+2069, the marks U+200E, U+200F and U+061C: `\u202e`;
 * - the line and paragraph separators U+2028, U+2029 (some terminals and log viewers break lines
 *   on them) and the interlinear annotation controls U+FFF9-U+FFFB: `\u2028`.
 *
 * Everything else is left as it is: letters of every script, emoji (with their joiner U+200D),
 * spaces, punctuation, and the backslash (a Windows path or a caption quoting `\n` reads as
 * written). The result holds none of these characters, so escaping it again changes nothing.
 * JSON output (JSON.stringify escapes controls) and pino's JSON logs need none of this.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufff9-\ufffb]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One field as a terminal shows it: controls, newlines and bidi controls escaped, the rest untouched. */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/**
 * A line (or lines) of the CLI's text output: the template's own text as written, every value put
 * into it escaped with escapeTerminal. `printable\`batch ${id} (${feed})\``: a newline in `feed`
 * prints as `\n`, the template's own `\n` stays a line break.
 */
export function printable(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += escapeTerminal(String(values[i])) + strings[i + 1];
  return out;
}

/**
 * A text whose own lines are meant (an error message listing problems one per line): each line's
 * controls escaped, its line breaks kept. A CR stays escaped, so no line can overwrite another.
 */
export function escapeTerminalLines(text: string): string {
  return text.split('\n').map(escapeTerminal).join('\n');
}
