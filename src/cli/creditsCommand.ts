import { createInterface } from 'node:readline';
import { escapeTerminal, printable } from '../core/terminalText';
import { once } from 'node:events';
import { loadBoilerplateRules, removedFileMarker, type BoilerplateRules } from '../core/captions/boilerplate';
import { cleanCaption } from '../core/captions/cleanCaption';
import { normalizeText } from '../core/captions/normalizeText';
import { loadCreditRules, type CreditRules } from '../core/credits/rules';
import { compileRules } from '../core/credits/compileRules';
import { normalizeCredit } from '../core/credits/normalizeCredit';
import { parseCreditText } from '../core/credits/parseCreditText';
import type { Credit } from '../schemas/credit';

/** A line with no credit found is still read as a credit when it is this short and has no sentence in it. */
const SHORT_CREDIT_WORDS = 8;

/**
 * The operator's dry run: each input line is a raw credit or a whole caption. A line whose
 * credit tail is all there is (apart from suffixes such as "(credit:Getty)") is a raw credit;
 * a line with caption text besides is a caption, and its cleaned caption is printed too. One
 * JSON object per line goes to `output`; blank lines and lines starting with "#" are skipped.
 * Returns how many lines gave a low-confidence credit. Rules errors are thrown before any output.
 */
export async function runCreditsCommand(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  opts: { rulesPath?: string; boilerplatePath?: string; table?: boolean },
): Promise<number> {
  const rules = loadCreditRules(opts.rulesPath);
  const boilerplate = loadBoilerplateRules(opts.boilerplatePath);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let low = 0;
  const write = async (text: string) => {
    if (!output.write(text)) await once(output, 'drain');
  };
  if (opts.table) await write(creditTableHeader());
  for await (const line of lines) {
    const text = line.replace(/^\uFEFF/, '');
    if (!text.trim() || text.trimStart().startsWith('#')) continue;

    const { credit, flagged, record } = creditOfLine(text, rules, boilerplate);
    if (credit.confidence === 'low') low++;
    await write(opts.table ? creditTableRow(text, flagged) : JSON.stringify(record) + '\n');
  }
  return low;
}

/** IPTC fields read beside a line's text, for a labelled set that gives them (bench/credits). */
export interface LineFields {
  byline?: string[];
  source?: string | null;
  creditLine?: string | null;
}

/**
 * What `photowire credits` makes of one input line: a line whose credit tail is all there is (or a
 * short line with no sentence in it) is a raw credit; otherwise a caption, cleaned, whose credit
 * tail is read. `record` is what the command prints.
 */
export function creditOfLine(
  text: string,
  rules: CreditRules,
  boilerplate: BoilerplateRules,
  fields: LineFields = {},
): {
  credit: Credit;
  flagged: Credit;
  record: Credit & { caption?: string; removed?: Array<{ kind: string; text: string }> };
} {
  const cleaned = cleanCaption(text, { rules, boilerplate });
  const noCaptionLeft = cleaned.caption === '';
  const noSentence = !/[.!?]\s+\p{Lu}/u.test(text);
  // A longer line is still a credit when all of it reads as one ("NASA; ESA; A. Feild and R. van der
  // Marel, STScI"): nothing in it left unread.
  const wholeCredit = () => {
    const parsed = parseCreditText(text, compileRules(rules));
    return parsed.recognised && parsed.unknown.length === 0;
  };
  const looksLikeCredit =
    cleaned.creditTail === null &&
    noSentence &&
    (normalizeText(text).split(' ').length <= SHORT_CREDIT_WORDS || wholeCredit());
  const isCredit = noCaptionLeft || looksLikeCredit;
  const credit = normalizeCredit(
    {
      captionTail: isCredit ? text : cleaned.creditTail,
      byline: fields.byline ?? [],
      creditLine: fields.creditLine ?? null,
      source: fields.source ?? null,
      copyright: null,
    },
    rules,
  );
  // A caption also shows what the cleaner removed (credit, boilerplate, notes): the dry run of both rule files.
  const fileMarker = !isCredit && removedFileMarker(cleaned.removed); // as the pipeline does (processItem)
  const flagged = fileMarker ? { ...credit, flags: { ...credit.flags, file: true } } : credit;
  const record = isCredit ? credit : { ...flagged, caption: cleaned.caption, removed: cleaned.removed };
  return { credit, flagged, record };
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
