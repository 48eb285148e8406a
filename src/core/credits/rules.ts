import { readFileSync } from 'node:fs';
import defaults from './default-rules.json';
import { JsonSyntaxError, lineAndColumn, parseJsonWithPositions, pathKey } from './jsonPositions';
import { creditRulesSchema, operatorRulesSchema, type CreditRules, type OperatorRules } from './rulesSchema';

export type { CreditRules } from './rulesSchema';

/** A rules file that cannot be used. `code` starts with CREDIT_RULES so the CLI prints it without a stack. */
export class CreditRulesError extends Error {
  constructor(
    readonly code: 'CREDIT_RULES_UNREADABLE' | 'CREDIT_RULES_INVALID',
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
    readonly column: number | null = null,
  ) {
    super(`credit rules file ${file}${line !== null ? `, line ${line}` : ''}${column !== null ? `, column ${column}` : ''}: ${reason}`);
    this.name = 'CreditRulesError';
  }
}

const DEFAULT_RULES_NAME = 'default-rules.json (shipped with photowire)';

let shippedDefaults: CreditRules | undefined;

/** The rules shipped with photowire, validated once. */
export function defaultCreditRules(): CreditRules {
  if (!shippedDefaults) {
    const parsed = creditRulesSchema.safeParse(defaults);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CreditRulesError('CREDIT_RULES_INVALID', DEFAULT_RULES_NAME, null, `${issue.path.join('.')}: ${issue.message}`);
    }
    shippedDefaults = parsed.data;
  }
  return shippedDefaults;
}

/**
 * The credit rules in force: the shipped defaults, extended or overridden by the operator's file
 * when `path` is given (the caller reads PHOTOWIRE_CREDIT_RULES). A file that cannot be read,
 * is not JSON, or does not match the schema is refused with its line and the reason.
 */
export function loadCreditRules(path?: string): CreditRules {
  const base = defaultCreditRules();
  if (path === undefined || path === '') return base;

  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CreditRulesError('CREDIT_RULES_UNREADABLE', path, null, `cannot be read (${code ?? String(err)})`);
  }

  let json;
  try {
    json = parseJsonWithPositions(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) {
      const { line, column } = lineAndColumn(text, err.offset);
      throw new CreditRulesError('CREDIT_RULES_INVALID', path, line, `not valid JSON: ${err.message}`, column);
    }
    throw err;
  }

  const op = operatorRulesSchema.safeParse(json.value);
  if (!op.success) throw schemaError(path, text, json.positions, op.error.issues[0]);
  const merged = creditRulesSchema.safeParse(mergeRules(base, op.data));
  if (!merged.success) throw schemaError(path, text, json.positions, merged.error.issues[0]);
  return merged.data;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** A schema problem reported at the line of the offending key (a missing key: at its parent's line). */
function schemaError(file: string, text: string, positions: Map<string, number>, issue: Issue): CreditRulesError {
  let path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  let reason = issue.message;
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    path = [...path, issue.keys[0]];
    reason = 'unknown key (a misspelling?)';
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    reason = 'required but missing';
  }
  let line: number | null = null;
  for (let n = path.length; n >= 0 && line === null; n--) {
    const at = positions.get(pathKey(path.slice(0, n)));
    if (at !== undefined) line = lineAndColumn(text, at).line;
  }
  return new CreditRulesError('CREDIT_RULES_INVALID', file, line, `${path.join('.') || '(top level)'}: ${reason}`);
}

function union(a: readonly string[], b: readonly string[] | undefined): string[] {
  const out = [...a];
  const seen = new Set(a.map((s) => s.toLowerCase()));
  for (const s of b ?? []) {
    if (!seen.has(s.toLowerCase())) {
      seen.add(s.toLowerCase());
      out.push(s);
    }
  }
  return out;
}

/** Operator rules over the defaults: maps merged key by key (operator wins), lists added to. */
export function mergeRules(base: CreditRules, op: OperatorRules): unknown {
  const agencies: Record<string, unknown> = { ...base.agencies };
  for (const [id, entry] of Object.entries(op.agencies ?? {})) {
    const prev = base.agencies[id];
    agencies[id] = prev
      ? { ...prev, ...entry, aliases: union(prev.aliases, entry.aliases) }
      : { ...entry, aliases: entry.aliases ?? [] };
  }
  const partners: Record<string, string[]> = { ...base.partners };
  for (const [name, aliases] of Object.entries(op.partners ?? {})) partners[name] = union(partners[name] ?? [], aliases);
  return {
    version: `${base.version}+${op.version}`,
    houseStyle: { ...base.houseStyle, ...op.houseStyle },
    agencies,
    distributors: { ...base.distributors, ...op.distributors },
    partners,
    organisationWords: union(base.organisationWords, op.organisationWords),
    placeholders: union(base.placeholders, op.placeholders),
    flagWords: {
      file: union(base.flagWords.file, op.flagWords?.file),
      pool: union(base.flagWords.pool, op.flagWords?.pool),
      handout: union(base.flagWords.handout, op.flagWords?.handout),
    },
    restrictions: {
      phrases: union(base.restrictions.phrases, op.restrictions?.phrases),
      multiWordPlaces: union(base.restrictions.multiWordPlaces, op.restrictions?.multiWordPlaces),
    },
    nameCasing: {
      particles: union(base.nameCasing.particles, op.nameCasing?.particles),
      exceptions: { ...base.nameCasing.exceptions, ...op.nameCasing?.exceptions },
    },
  };
}
