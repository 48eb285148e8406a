import { once } from 'node:events';
import { escapeTerminal, printable } from '../core/terminalText';
import type { Credit } from '../schemas/credit';
import { creditsDryRun } from '../app/credits/creditsDryRun';

/**
 * `photowire credits`: the rules' dry run (src/app/credits/creditsDryRun.ts), one JSON object per
 * input line, or a terminal table with `table`. Rules errors are thrown before any output.
 */
export async function runCreditsCommand(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  opts: { rulesPath?: string; boilerplatePath?: string; table?: boolean },
): Promise<number> {
  const dryRun = creditsDryRun(opts);
  if (opts.table && !output.write(creditTableHeader())) await once(output, 'drain');
  return dryRun.run(
    input,
    (text, { flagged, record }) => (opts.table ? creditTableRow(text, flagged) : JSON.stringify(record) + '\n'),
    output,
  );
}

/** Column widths of the terminal table: input, creator, agency, distributor, line, confidence. */
const COLUMNS: Array<[string, number]> = [
  ['input', 34],
  ['creator', 22],
  ['agency', 16],
  ['distributor', 14],
  ['house line', 30],
  ['conf.', 6], // high, medium, low
];

function cell(text: string, width: number): string {
  // Whitespace runs (newlines too) become one space, then what is left of controls and bidi marks is escaped.
  const chars = [...escapeTerminal(text.replace(/\s+/g, ' ').trim())];
  const fitted = chars.length > width ? chars.slice(0, width - 1).join('') + '…' : chars.join('');
  return fitted + ' '.repeat(Math.max(0, width - [...fitted].length));
}

export function creditTableHeader(): string {
  return (
    COLUMNS.map(([name, w]) => cell(name, w))
      .join('  ')
      .trimEnd() +
    '\n' +
    COLUMNS.map(([, w]) => '-'.repeat(w)).join('  ') +
    '\n'
  );
}

/** One readable row per input; flags (pool, handout, file, mandatory, restrictions) on a second line when set. */
export function creditTableRow(input: string, credit: Credit): string {
  const values = [
    input,
    credit.creators.join(', ') || '-',
    credit.agency ?? '-',
    credit.distributor ?? '-',
    credit.line ?? '-',
    credit.confidence,
  ];
  let row =
    values
      .map((v, i) => cell(v, COLUMNS[i][1]))
      .join('  ')
      .trimEnd() + '\n';
  const f = credit.flags;
  const flags = [
    f.pool && 'pool',
    f.handout && 'handout',
    f.file && 'file',
    f.mandatory && 'mandatory credit',
    ...f.restrictions,
  ].filter(Boolean);
  if (flags.length) row += printable`${' '.repeat(COLUMNS[0][1] + 2)}flags: ${flags.join(', ')}\n`;
  return row;
}
