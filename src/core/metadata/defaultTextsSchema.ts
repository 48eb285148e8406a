import { z } from 'zod';
import { ruleName, ruleTemplate } from '../ruleText';

/**
 * The shape of the camera- and software-default rules (default-texts.json and an operator's
 * file, PHOTOWIRE_DEFAULT_TEXT_RULES). A rule names whole texts (core/ruleText.ts), which
 * defaultTexts.ts turns into anchored patterns.
 */

/** The fields a default text is dropped from. */
export const DEFAULT_TEXT_FIELDS = [
  'caption',
  'headline',
  'byline',
  'copyright',
  'objectName',
  'credit',
  'source',
  'writer',
  'specialInstructions',
] as const;
export type DefaultTextField = (typeof DEFAULT_TEXT_FIELDS)[number];

/** What may stand in a text besides literal characters: one word, one to four words, a run of digits. */
export const TEXT_PLACEHOLDERS = ['word', 'words', 'digits'] as const;

const slug = ruleName('olympus');
const text = ruleTemplate('text', TEXT_PLACEHOLDERS);

export const defaultTextRuleSchema = z.strictObject({
  /** Unique name; an operator rule with a shipped rule's name replaces it. */
  name: slug,
  /** Where these texts are dropped from (a by-line list loses the matching names only). */
  fields: z.array(z.enum(DEFAULT_TEXT_FIELDS)).min(1),
  /** Whole values, matched ignoring case, surrounding blanks and runs of blanks. */
  texts: z.array(text).min(1),
  /** Who writes it, and a real file that carries it. */
  why: z.string().min(1).max(300),
});

export const defaultTextRulesSchema = z.strictObject({
  version: z.string().min(1),
  rules: z.array(defaultTextRuleSchema),
});

export const operatorDefaultTextRulesSchema = z.strictObject({
  version: z.string().min(1),
  /** Shipped rules to switch off, by name. */
  disable: z.array(slug).optional(),
  /** Added, or replacing a shipped rule of the same name. */
  rules: z.array(defaultTextRuleSchema).optional(),
});

export type DefaultTextRule = z.infer<typeof defaultTextRuleSchema>;
export type DefaultTextRulesFile = z.infer<typeof defaultTextRulesSchema>;
