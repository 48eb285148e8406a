import { readFileSync } from 'node:fs';
import { PhotowireError } from './errors';
import { JsonSyntaxError, lineAndColumn, parseJsonWithPositions, type PositionedJson } from './credits/jsonPositions';

/**
 * Reading an operator's rules file (credit rules, rights rules, boilerplate rules, camera default texts): the text, the
 * JSON with the position of every key, and one error for every rules file that cannot be used,
 * located at a line, whose code names the rules (CREDIT_RULES_INVALID, RIGHTS_RULES_UNREADABLE...).
 */

/** The rules files photowire reads, by the prefix of their codes. */
const RULES_LABEL = {
  CREDIT_RULES: 'credit rules file',
  RIGHTS_RULES: 'rights rules file',
  BOILERPLATE_RULES: 'boilerplate rules file',
  DEFAULT_TEXT_RULES: 'default-text rules file',
} as const;
export type RulesKind = keyof typeof RULES_LABEL;
export type RulesFileCode = `${RulesKind}_${'UNREADABLE' | 'INVALID'}`;

/** A rules file that cannot be used: which file, where and why. Its code's exit is 2, so the CLI prints it without a stack. */
export class RulesFileError extends PhotowireError {
  declare readonly code: RulesFileCode;
  constructor(
    code: RulesFileCode,
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
    readonly column: number | null = null,
  ) {
    const kind = code.replace(/_(UNREADABLE|INVALID)$/, '') as RulesKind;
    super(
      code,
      `${RULES_LABEL[kind]} ${file}${line !== null ? `, line ${line}` : ''}${column !== null ? `, column ${column}` : ''}: ${reason}`,
    );
    this.name = 'RulesFileError';
  }
}

export interface RulesFileProblem {
  kind: 'unreadable' | 'invalid';
  line: number | null;
  column: number | null;
  reason: string;
}

/** The error of a problem found in `file` of these rules. */
export function rulesFileError(kind: RulesKind, file: string, p: RulesFileProblem): RulesFileError {
  return new RulesFileError(
    `${kind}_${p.kind === 'unreadable' ? 'UNREADABLE' : 'INVALID'}`,
    file,
    p.line,
    p.reason,
    p.column,
  );
}

export interface RulesFile {
  kind: RulesKind;
  path: string;
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

/** Read and parse a rules file; a file that cannot be read or is not JSON is refused with a RulesFileError. */
export function readRulesFile(kind: RulesKind, path: string): RulesFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw rulesFileError(kind, path, {
      kind: 'unreadable',
      line: null,
      column: null,
      reason: `cannot be read (${code ?? String(err)})`,
    });
  }
  try {
    const { value, offsetOf } = parseJsonWithPositions(text);
    return { kind, path, text, value, offsetOf };
  } catch (err) {
    if (err instanceof JsonSyntaxError) {
      const { line, column } = lineAndColumn(text, err.offset);
      throw rulesFileError(kind, path, { kind: 'invalid', line, column, reason: `not valid JSON: ${err.message}` });
    }
    throw err;
  }
}

/** The error of a schema problem of the file (problemAt: at the line of the offending key). */
export function invalidRules(
  file: RulesFile,
  issue: RulesIssue,
  unknownKey?: (parent: ReadonlyArray<string | number>) => string | null,
): RulesFileError {
  return rulesFileError(file.kind, file.path, problemAt(file, issue, unknownKey));
}

/** The error of shipped rules that do not match their schema (a build mistake: no line to point at). */
export function invalidShippedRules(
  kind: RulesKind,
  name: string,
  issue: { path: PropertyKey[]; message: string },
): RulesFileError {
  return new RulesFileError(`${kind}_INVALID`, name, null, `${issue.path.map(String).join('.')}: ${issue.message}`);
}

/**
 * A schema problem at the line of the offending key (a missing key: at its parent's line).
 * `unknownKey` may give a better reason for a key the schema does not know.
 */
export function problemAt(
  file: RulesFile,
  issue: RulesIssue,
  unknownKey?: (parent: ReadonlyArray<string | number>) => string | null,
): RulesFileProblem {
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
