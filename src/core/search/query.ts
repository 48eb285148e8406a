import type { CatalogRecord } from '../../schemas/record';

/**
 * The desk's search syntax: the one copy. The page sends its search box to the API (`q`) and the
 * server answers with the records that match (src/app/records/recordQuery.ts); the page has no
 * parser of its own. test/fixtures/search/queries.json is the table it must pass. Pure.
 */

/** Case- and accent-insensitive: "sao paulo" finds "São Paulo", "afp" finds "AFP". */
export function fold(s: string | null | undefined): string {
  return String(s ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export type SearchField = 'agency' | 'creator' | 'credit' | 'caption';
export interface SearchTerm {
  field: SearchField | null;
  text: string;
}

const FIELDS = new Set(['agency', 'creator', 'by', 'credit', 'caption']);

/**
 * `tulip agency:afp creator:"van weel"` -> free words plus field terms. A field term matches only
 * that field; an unknown `x:y` is taken as a plain word.
 */
export function parseQuery(q: string | null | undefined): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const re = /(\w+):"([^"]*)"|(\w+):(\S+)|"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(String(q ?? ''))) !== null) {
    const field = (m[1] ?? m[3])?.toLowerCase();
    const value = m[2] ?? m[4] ?? m[5] ?? m[6];
    if (field && FIELDS.has(field)) {
      if (value.trim())
        terms.push({ field: (field === 'by' ? 'creator' : field) as SearchField, text: fold(value.trim()) });
    } else {
      const text = field ? `${field}:${value}` : value;
      if (text.trim()) terms.push({ field: null, text: fold(text.trim()) });
    }
  }
  return terms;
}

function fieldText(record: CatalogRecord, field: SearchField | null): string {
  const c = record.credit;
  switch (field) {
    case 'agency':
      // Display names and rules ids ("Getty Images" and "GETTY"), so either shape finds the organisation.
      return fold([c.agency, c.agencyId, c.distributor, c.distributorId, ...c.partners].filter(Boolean).join('\n'));
    case 'creator':
      return fold(c.creators.join('\n'));
    case 'credit':
      return fold(
        [c.line, c.raw.captionTail, ...c.raw.byline, c.raw.creditLine, c.raw.source, c.raw.copyright]
          .filter(Boolean)
          .join('\n'),
      );
    case 'caption':
      return fold([record.caption, record.title, record.headline].filter(Boolean).join('\n'));
    default:
      return [
        fieldText(record, 'caption'),
        fieldText(record, 'creator'),
        fieldText(record, 'agency'),
        fold(c.line ?? ''),
        fold(record.error?.message ?? ''),
      ].join('\n');
  }
}

const squeeze = (s: string) => s.replace(/[\s_.-]+/g, '');

/**
 * Every term must match. An agency term also matches with spaces, dots, hyphens and "_" left out,
 * so "gettyimages", "getty images" and "GETTY" find "Getty Images", and "adobe stock" ADOBE_STOCK.
 * The record is taken as served (credits in today's shape: src/app/records/recordQuery.ts).
 */
export function recordMatches(record: CatalogRecord, terms: SearchTerm[]): boolean {
  return terms.every((t) => {
    const text = fieldText(record, t.field);
    return (
      text.includes(t.text) ||
      (t.field === 'agency' && text.split('\n').some((name) => squeeze(name).includes(squeeze(t.text))))
    );
  });
}

/** The words of a folded name, as the creator index keeps them: "Jean-Luc O'Neil" -> jean, luc, o, neil. */
export function nameTokens(s: string): string[] {
  return [
    ...new Set(
      fold(s)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    ),
  ];
}
