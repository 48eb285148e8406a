import type { IptcFields } from '../../schemas/feedItem';
import { matchDefaultText, normalizeDefaultCandidate, type DefaultTexts } from './defaultTexts';
import { DEFAULT_TEXT_FIELDS } from './defaultTextsSchema';

/** One value the dry run looked at: where it came from, and the rule that drops it (null: kept). */
export interface DefaultTextVerdict {
  source: string;
  field: string;
  value: string;
  dropped: boolean;
  rule: string | null;
}

/**
 * A line of the operator's dry run: `text` alone is tried as every field a rule may name, the
 * first that drops it reported (else kept as a caption); `field<TAB>text` as that field only.
 */
export function dryRunDefaultLine(texts: DefaultTexts, line: string): DefaultTextVerdict {
  const tab = line.indexOf('\t');
  const named = tab > 0 ? line.slice(0, tab).trim() : '';
  const field = (DEFAULT_TEXT_FIELDS as readonly string[]).includes(named) ? named : undefined;
  const value = field !== undefined ? line.slice(tab + 1) : line;
  for (const f of field !== undefined ? [field] : DEFAULT_TEXT_FIELDS) {
    const m = matchDefaultText(texts, f, value);
    if (m) return { source: 'line', field: f, value: normalizeDefaultCandidate(value), dropped: true, rule: m.rule };
  }
  return {
    source: 'line',
    field: field ?? 'caption',
    value: normalizeDefaultCandidate(value),
    dropped: false,
    rule: null,
  };
}

/** Every text value of an image's IIM, XMP and EXIF (readImageMetadataBySource's bySource), each with its verdict. */
export function dryRunDefaultFields(texts: DefaultTexts, bySource: Record<string, IptcFields>): DefaultTextVerdict[] {
  const out: DefaultTextVerdict[] = [];
  for (const [source, fields] of Object.entries(bySource)) {
    for (const field of DEFAULT_TEXT_FIELDS) {
      const v = fields[field];
      for (const value of Array.isArray(v) ? v : typeof v === 'string' ? [v] : []) {
        const m = matchDefaultText(texts, field, value);
        out.push({ source: source.toUpperCase(), field, value, dropped: m !== undefined, rule: m?.rule ?? null });
      }
    }
  }
  return out;
}
