import { z } from 'zod';

/**
 * Pieces the rules files' schemas share (boilerplate rules, camera default texts): a rule's name,
 * and a text template of literal characters with `{placeholder}`s from a fixed list. Templates are
 * never regular expressions: the code that reads a rule turns each into a pattern of its own with
 * bounded repetition only, so no rule can make matching slow.
 */

/** A rule's name: lower-case letters, digits and "-", starting with a letter. */
export function ruleName(example: string) {
  return z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,39}$/, `lower-case letters, digits and "-", starting with a letter (e.g. "${example}")`);
}

/** A template of at most 80 characters: no outer or double spaces, only known placeholders, braces balanced. */
export function ruleTemplate(noun: string, placeholders: readonly string[]) {
  const known = placeholders.map((p) => `{${p}}`).join(' ');
  return z
    .string()
    .min(1, 'must not be empty')
    .max(80, `a ${noun} has at most 80 characters`)
    .superRefine((s, ctx) => {
      if (s !== s.trim() || / {2}/.test(s))
        ctx.addIssue({ code: 'custom', message: 'no leading, trailing or double spaces' });
      for (const m of s.matchAll(/\{([^{}]*)\}/g)) {
        if (!placeholders.includes(m[1]))
          ctx.addIssue({ code: 'custom', message: `unknown placeholder {${m[1]}} (known: ${known})` });
      }
      if (/[{}]/.test(s.replace(/\{[^{}]*\}/g, ''))) ctx.addIssue({ code: 'custom', message: 'unbalanced { or }' });
    });
}
