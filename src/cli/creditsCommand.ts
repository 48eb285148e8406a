import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { loadBoilerplateRules, removedFileMarker } from '../core/captions/boilerplate';
import { cleanCaption } from '../core/captions/cleanCaption';
import { normalizeText } from '../core/captions/normalizeText';
import { loadCreditRules } from '../core/credits/rules';
import { normalizeCredit } from '../core/credits/normalizeCredit';

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
  opts: { rulesPath?: string; boilerplatePath?: string },
): Promise<number> {
  const rules = loadCreditRules(opts.rulesPath);
  const boilerplate = loadBoilerplateRules(opts.boilerplatePath);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let low = 0;
  for await (const line of lines) {
    const text = line.replace(/^\uFEFF/, '');
    if (!text.trim() || text.trimStart().startsWith('#')) continue;

    const cleaned = cleanCaption(text, { rules, boilerplate });
    const noCaptionLeft = cleaned.caption === '';
    const looksLikeCredit =
      cleaned.creditTail === null && normalizeText(text).split(' ').length <= SHORT_CREDIT_WORDS && !/[.!?]\s+\p{Lu}/u.test(text);
    const isCredit = noCaptionLeft || looksLikeCredit;
    const credit = normalizeCredit(
      { captionTail: isCredit ? text : cleaned.creditTail, byline: [], creditLine: null, source: null, copyright: null },
      rules,
    );
    if (credit.confidence === 'low') low++;
    // A caption also shows what the cleaner removed (credit, boilerplate, notes): the dry run of both rule files.
    const fileMarker = !isCredit && removedFileMarker(cleaned.removed); // as the pipeline does (processItem)
    const flagged = fileMarker ? { ...credit, flags: { ...credit.flags, file: true } } : credit;
    const record = isCredit ? credit : { ...flagged, caption: cleaned.caption, removed: cleaned.removed };
    if (!output.write(JSON.stringify(record) + '\n')) await once(output, 'drain');
  }
  return low;
}
