import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { loadBoilerplateRules } from '../../core/captions/boilerplate';
import { creditOfLine } from '../../core/credits/creditOfLine';
import { loadCreditRules } from '../../core/credits/rules';

export type CreditOfLine = ReturnType<typeof creditOfLine>;

/**
 * The operator's dry run of the credit and boilerplate rules (`photowire credits`): each input line
 * is a raw credit or a whole caption (src/core/credits/creditOfLine.ts); blank lines and lines
 * starting with "#" are skipped. The rules are loaded before anything is read or written, so a
 * rules file's error comes before any output; `format` turns each line's result into the text
 * written to `output`, in input order.
 * Returns how many lines gave a low-confidence credit.
 */
export function creditsDryRun(opts: { rulesPath?: string; boilerplatePath?: string }): {
  run(
    input: NodeJS.ReadableStream,
    write: (text: string, result: CreditOfLine) => string,
    output: NodeJS.WritableStream,
  ): Promise<number>;
} {
  const rules = loadCreditRules(opts.rulesPath);
  const boilerplate = loadBoilerplateRules(opts.boilerplatePath);
  return {
    async run(input, format, output) {
      let low = 0;
      for await (const line of createInterface({ input, crlfDelay: Infinity })) {
        const text = line.replace(/^\uFEFF/, '');
        if (!text.trim() || text.trimStart().startsWith('#')) continue;
        const result = creditOfLine(text, rules, boilerplate);
        if (result.credit.confidence === 'low') low++;
        if (!output.write(format(text, result))) await once(output, 'drain');
      }
      return low;
    },
  };
}
