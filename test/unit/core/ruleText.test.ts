import { ruleName, ruleTemplate } from '../../../src/core/ruleText';
import { boilerplateRulesSchema } from '../../../src/core/captions/boilerplateSchema';

const problems = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('the rules files share their names and text templates', () => {
  const template = ruleTemplate('text', ['word', 'digits']);

  it('a template: known placeholders, no outer or double spaces, balanced braces, 80 characters at most', () => {
    expect(problems(template.safeParse('OLYMPUS DIGITAL CAMERA'))).toEqual([]);
    expect(problems(template.safeParse('Caplio {word} User {digits}'))).toEqual([]);
    expect(problems(template.safeParse('Caplio {words}'))).toEqual([
      'unknown placeholder {words} (known: {word} {digits})',
    ]);
    expect(problems(template.safeParse(' SONY DSC'))).toEqual(['no leading, trailing or double spaces']);
    expect(problems(template.safeParse('SONY  DSC'))).toEqual(['no leading, trailing or double spaces']);
    expect(problems(template.safeParse('Caplio {word'))).toEqual(['unbalanced { or }']);
    expect(problems(template.safeParse('x'.repeat(81)))).toEqual(['a text has at most 80 characters']);
    // every problem at once, not the first only
    expect(problems(template.safeParse(' {x} }'))).toEqual([
      'no leading, trailing or double spaces',
      'unknown placeholder {x} (known: {word} {digits})',
      'unbalanced { or }',
    ]);
  });

  it('a name: lower case, digits and dashes, the example in the message', () => {
    expect(ruleName('olympus').safeParse('gimp-2').success).toBe(true);
    expect(problems(ruleName('olympus').safeParse('Gimp'))).toEqual([
      'lower-case letters, digits and "-", starting with a letter (e.g. "olympus")',
    ]);
  });

  it('a boilerplate phrase also starts with a letter, after its placeholders', () => {
    const rules = (phrase: string) =>
      boilerplateRulesSchema.safeParse({
        version: '1',
        markers: [{ name: 'a', kind: 'b', at: 'anywhere', phrases: [phrase] }],
      });
    expect(problems(rules('SEARCH {quoted}'))).toEqual([]);
    expect(problems(rules('{caps} SEARCH'))).toEqual(['a phrase starts with a letter']);
    expect(problems(rules('- SEARCH'))).toEqual(['a phrase starts with a letter']);
  });
});
