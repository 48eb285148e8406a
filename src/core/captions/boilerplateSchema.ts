import { z } from 'zod';
import { ruleName, ruleTemplate } from '../ruleText';

/**
 * The shape of the wire-boilerplate rules (boilerplate-rules.json and an operator's file). A rule
 * names phrases, never regular expressions: the code turns each into a pattern with bounded
 * repetition only, so no rule can make cleaning slow (see BOILERPLATE.md).
 */

/** What may stand inside a phrase besides literal text: a quoted string, a run of upper-case words. */
export const PHRASE_PLACEHOLDERS = ['quoted', 'caps'] as const;

const slug = ruleName('file-marker');

const phrase = ruleTemplate('phrase', PHRASE_PLACEHOLDERS).refine(
  (s) => /[A-Za-z]/.test(s.replace(/\{[^{}]*\}/g, '').charAt(0)),
  'a phrase starts with a letter',
);

export const markerExampleSchema = z.strictObject({
  /** A received caption the rule applies to. */
  caption: z.string().min(1),
  /** The caption photowire keeps. */
  cleaned: z.string(),
  /** The text this rule removes from it, as received. */
  removed: z.string().min(1),
});

export const markerRuleSchema = z
  .strictObject({
    /** Unique name; an operator rule with a shipped rule's name replaces it. */
    name: slug,
    /** The kind the removed text gets in `captionRemoved`. Kind "file-marker" also sets credit.flags.file. */
    kind: slug,
    /**
     * Where the phrase is recognised and how much goes with it:
     * - start: at the start of the caption (markers may follow one another), with a separator
     *   (":", " -") and, with `reason`, the upper-case reason that follows ("REFILE - CORRECTING TYPO");
     * - sentence: at the start of a sentence, removed to the end of that sentence;
     * - anywhere: the phrase itself, wherever it stands as whole words, with a full stop after it;
     * - bracket: a parenthesis that opens with the phrase, "(ADDS ...)", to its closing bracket;
     * - rest: a notice that runs from the phrase to the end of the caption (AFP's correction notice
     *   '/ "The erroneous mention[s] appearing in the metadata ... "'), with the " / " or quote before it.
     */
    at: z.enum(['start', 'sentence', 'anywhere', 'bracket', 'rest']),
    phrases: z.array(phrase).min(1, 'at least one phrase'),
    /** "exact" (default): upper-case phrases match upper case only. "any": case is ignored. */
    case: z.enum(['exact', 'any']).optional(),
    /** start only: whether a separator (":" or " -") must follow the phrase (default "optional"). */
    separator: z.enum(['required', 'optional']).optional(),
    /** start only: an upper-case reason follows the marker and goes with it. */
    reason: z.boolean().optional(),
    /** sentence only: a sentence holding one of these words is caption text ("Picture taken in 1969 shows ..."). */
    exceptWords: z.array(z.string().regex(/^[\p{L}\p{N}'-]{1,40}$/u, 'one word')).optional(),
    /** Dry-run examples, checked by the tests and shown in BOILERPLATE.md. */
    examples: z.array(markerExampleSchema).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.at !== 'start') {
      for (const key of ['separator', 'reason'] as const) {
        if (r[key] !== undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: `only a rule with "at": "start" takes "${key}"` });
      }
    }
    if (r.at !== 'sentence' && r.exceptWords !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['exceptWords'],
        message: 'only a rule with "at": "sentence" takes "exceptWords"',
      });
    }
    if (r.at !== 'anywhere') {
      r.phrases.forEach((p, i) => {
        if (/\{/.test(p))
          ctx.addIssue({
            code: 'custom',
            path: ['phrases', i],
            message: 'placeholders are only allowed with "at": "anywhere"',
          });
      });
    }
  });

const version = z.string().regex(/^\S{1,40}$/, 'version must be a non-empty word such as "2026.12.1"');

function uniqueNames(markers: ReadonlyArray<{ name: string }>, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  markers.forEach((m, i) => {
    if (seen.has(m.name))
      ctx.addIssue({ code: 'custom', path: ['markers', i, 'name'], message: `a second rule named "${m.name}"` });
    seen.add(m.name);
  });
}

export const boilerplateRulesSchema = z
  .strictObject({ version, markers: z.array(markerRuleSchema) })
  .superRefine((r, ctx) => uniqueNames(r.markers, ctx));

/**
 * An operator's file: `markers` are added (one with a shipped rule's name replaces it), `disable`
 * names shipped rules to switch off. `version` is required so a record's cleaning can be traced.
 */
export const operatorBoilerplateSchema = z
  .strictObject({
    version,
    markers: z.array(markerRuleSchema).optional(),
    disable: z.array(slug).optional(),
  })
  .superRefine((r, ctx) => uniqueNames(r.markers ?? [], ctx));

export type BoilerplateRules = z.infer<typeof boilerplateRulesSchema>;
export type MarkerRule = z.infer<typeof markerRuleSchema>;
export type OperatorBoilerplate = z.infer<typeof operatorBoilerplateSchema>;
