import { readFileSync } from 'node:fs';
import { JsonSyntaxError, lineAndColumn, parseJsonWithPositions, type PositionedJson } from './credits/jsonPositions';

/**
 * Reading an operator's rules file (credit rules, rights rules): the text, the JSON with the
 * position of every key, and problems located at a line. Each rules module turns a problem into
 * its own coded error (CREDIT_RULES_INVALID, RIGHTS_RULES_INVALID).
 */

export interface RulesFileProblem {
  kind: 'unreadable' | 'invalid';
  line: number | null;
  column: number | null;
  reason: string;
}

export interface RulesFile {
  text: string;
  value: unknown;
  offsetOf: PositionedJson['offsetOf'];
}

/** A zod issue, as far as locating it goes. */
export interface RulesIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** Read and parse a rules file; a file that cannot be read or is not JSON becomes `fail(problem)`. */
export function readRulesFile(path: string, fail: (p: RulesFileProblem) => Error): RulesFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fail({ kind: 'unreadable', line: null, column: null, reason: `cannot be read (${code ?? String(err)})` });
  }
  try {
    const { value, offsetOf } = parseJsonWithPositions(text);
    return { text, value, offsetOf };
  } catch (err) {
    if (err instanceof JsonSyntaxError) {
      const { line, column } = lineAndColumn(text, err.offset);
      throw fail({ kind: 'invalid', line, column, reason: `not valid JSON: ${err.message}` });
    }
    throw err;
  }
}

/**
 * A schema problem at the line of the offending key (a missing key: at its parent's line).
 * `unknownKey` may give a better reason for a key the schema does not know.
 */
export function problemAt(file: RulesFile, issue: RulesIssue, unknownKey?: (parent: ReadonlyArray<string | number>) => string | null): RulesFileProblem {
  let path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  let reason = issue.message;
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    reason = unknownKey?.(path) ?? 'unknown key (a misspelling?)';
    path = [...path, issue.keys[0]];
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    reason = 'required but missing';
  }
  let line: number | null = null;
  for (let n = path.length; n >= 0 && line === null; n--) {
    const at = file.offsetOf(path.slice(0, n));
    if (at !== undefined) line = lineAndColumn(file.text, at).line;
  }
  return { kind: 'invalid', line, column: null, reason: `${path.join('.') || '(top level)'}: ${reason}` };
}
