import { removedFileMarker, type BoilerplateRules } from '../captions/boilerplate';
import { cleanCaption } from '../captions/cleanCaption';
import { normalizeText } from '../captions/normalizeText';
import type { CreditRules } from './rules';
import { compileRules } from './compileRules';
import { normalizeCredit } from './normalizeCredit';
import { parseCreditText } from './parseCreditText';
import type { Credit } from '../../schemas/credit';

/** A line with no credit found is still read as a credit when it is this short and has no sentence in it. */
const SHORT_CREDIT_WORDS = 8;

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
