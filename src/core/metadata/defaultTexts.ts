import { RulesFileError, problemAt, readRulesFile, rulesFileError, type RulesFileProblem } from '../rulesFile';
import shipped from './default-texts.json';
import {
  defaultTextRulesSchema,
  operatorDefaultTextRulesSchema,
  type DefaultTextField,
  type DefaultTextRule,
  type DefaultTextRulesFile,
} from './defaultTextsSchema';

export type { DefaultTextField, DefaultTextRule } from './defaultTextsSchema';

/**
 * Camera and software defaults ("OLYMPUS DIGITAL CAMERA", "Created with GIMP", "Copyright,") are
 * not metadata: a caption made of one joins unrelated photos into one caption cluster, a
 * copyright made of one hides the real one. The texts are data (default-texts.json, extended by
 * PHOTOWIRE_DEFAULT_TEXT_RULES, dry run: `photowire defaults`); the reader drops a value that is
 * one of them, from whichever source it came, with a warning, and the next source fills in.
 */

/** A rules file that cannot be used. `code` starts with DEFAULT_TEXT_RULES so the CLI prints it without a stack. */
/** The default-text rules' error is the one rules-file error (src/core/rulesFile.ts). */
export { RulesFileError as DefaultTextRulesError } from '../rulesFile';

/** The rules in force, compiled. */
export interface DefaultTexts {
  version: string;
  rules: ReadonlyArray<DefaultTextRule & { patterns: RegExp[] }>;
}

/** What one value matched. */
export interface DefaultTextMatch {
  rule: string;
  text: string;
}

/** A default is short: a value longer than this is never one, and is never run through a pattern. */
export const MAX_DEFAULT_TEXT_CHARS = 120;

let shippedTexts: DefaultTexts | undefined;

/** The texts shipped with photowire, validated and compiled once. */
export function defaultDefaultTexts(): DefaultTexts {
  if (!shippedTexts) {
    const parsed = defaultTextRulesSchema.safeParse(shipped);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RulesFileError(
        'DEFAULT_TEXT_RULES_INVALID',
        'default-texts.json (shipped with photowire)',
        null,
        `${issue.path.join('.')}: ${issue.message}`,
      );
    }
    shippedTexts = compileDefaultTexts(parsed.data);
  }
  return shippedTexts;
}

/**
 * The rules in force: the shipped ones, extended by the operator's file when `path` is given (the
 * caller reads PHOTOWIRE_DEFAULT_TEXT_RULES): `rules` add to them (a shipped name is replaced),
 * `disable` switches shipped ones off. A file that cannot be read, is not JSON or does not match
 * the schema is refused with its line and the reason.
 */
export function loadDefaultTexts(path?: string): DefaultTexts {
  const base = defaultDefaultTexts();
  if (path === undefined || path === '') return base;
  const toError = (p: RulesFileProblem) => rulesFileError('DEFAULT_TEXT_RULES', path, p);
  const file = readRulesFile('DEFAULT_TEXT_RULES', path);
  const op = operatorDefaultTextRulesSchema.safeParse(file.value);
  if (!op.success) throw toError(problemAt(file, op.error.issues[0]));
  const known = new Set(base.rules.map((r) => r.name));
  (op.data.disable ?? []).forEach((name, i) => {
    if (!known.has(name))
      throw toError(
        problemAt(file, { code: 'custom', path: ['disable', i], message: `no shipped rule is named "${name}"` }),
      );
  });
  const disabled = new Set(op.data.disable ?? []);
  const replaced = new Map((op.data.rules ?? []).map((r) => [r.name, r]));
  const rules = [
    ...base.rules.filter((r) => !disabled.has(r.name)).map((r) => replaced.get(r.name) ?? r),
    ...(op.data.rules ?? []).filter((r) => !known.has(r.name)),
  ].map(({ name, fields, texts, why }) => ({ name, fields, texts, why }));
  return compileDefaultTexts({ version: `${base.version}+${op.data.version}`, rules });
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD = '[\\p{L}\\p{N}._-]{1,30}';
const PLACEHOLDER_RE: Record<string, string> = {
  word: WORD,
  words: `${WORD}(?: ${WORD}){0,3}`,
  digits: '\\p{N}{1,12}',
};

/** Each text as an anchored, case-insensitive pattern over the normalized value; repetition bounded. */
function compileDefaultTexts(file: DefaultTextRulesFile): DefaultTexts {
  return {
    version: file.version,
    rules: file.rules.map((r) => ({
      ...r,
      patterns: r.texts.map((t) => {
        const body = t
          .split(/(\{[a-z]+\})/)
          .map((part) => {
            const ph = /^\{([a-z]+)\}$/.exec(part);
            return ph ? PLACEHOLDER_RE[ph[1]] : escapeRe(part);
          })
          .join('');
        return new RegExp(`^${body}$`, 'iu');
      }),
    })),
  };
}

/** Blanks and NULs around, runs of blanks inside: as a desk user would read the value. */
export function normalizeDefaultCandidate(value: string): string {
  return value.replace(/[\s\0]+/g, ' ').trim();
}

/** The rule a value of `field` matches, if it is a camera or software default. */
export function matchDefaultText(texts: DefaultTexts, field: string, value: string): DefaultTextMatch | undefined {
  if (value.length > MAX_DEFAULT_TEXT_CHARS * 4) return undefined;
  const v = normalizeDefaultCandidate(value);
  if (v.length > MAX_DEFAULT_TEXT_CHARS) return undefined;
  for (const r of texts.rules) {
    if (!(r.fields as readonly string[]).includes(field as DefaultTextField)) continue;
    const i = r.patterns.findIndex((p) => p.test(v));
    if (i >= 0) return { rule: r.name, text: r.texts[i] };
  }
  return undefined;
}
