import type { Token } from '../rights/tokens';

/**
 * Agency ids quoted in kill, withdrawal and correction notices: transmission references
 * ("NYPS101", "LON805"), Reuters ids ("RC2L86AM4ZIA"), EPA ids ("epa11213344"), Getty numbers
 * ("2065273843"), dpa and NewsML ids ("urn:newsml:dpa.com:20090101:171117-90-000086",
 * "tag:reuters.com,2024:newsml_LYNXMPEA6F0MS"). Every scan is bounded: an id is at most
 * MAX_ID characters, so reading one costs nothing more on a long text.
 */

const MAX_ID = 128;
const MAX_URN = 256;

function isIdChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 /* _ */ ||
    c === 45 /* - */ ||
    c === 46 /* . */ ||
    c === 58 /* : */
  );
}

/** The id-like run of characters starting at `start`, trailing punctuation removed. */
function rawRun(text: string, start: number): string {
  let j = start;
  while (j < text.length && j - start < MAX_ID && isIdChar(text.charCodeAt(j))) j++;
  return text.slice(start, j).replace(/[.:_-]+$/, '');
}

/** Whether a run of characters looks like an agency id rather than a word, a date, a time or a count. */
export function looksLikeId(raw: string): boolean {
  if (raw.length < 4 || raw.length > MAX_ID) return false;
  if (!/\d/.test(raw)) return false;
  const digits = raw.replace(/\D/g, '').length;
  const letters = /[A-Za-z]/.test(raw);
  if (!letters) {
    if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(raw) || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(raw)) return false; // a date
    return digits >= 6; // Getty's 2065273843, dpa's 171117-90-000086; not "1500" or "2024"
  }
  if (/^\d{1,2}[:.]\d{2}/.test(raw)) return false; // a time
  if (/^\d+(?:st|nd|rd|th|px|mm|cm|m|km|kg|am|pm|gmt|utc|mp|kb|mb|gb|s|x)$/i.test(raw)) return false;
  if (/^(?:covid|mp|ps|xbox|iphone|a|b|f|g|u)-?\d{1,3}$/i.test(raw)) return false;
  return true;
}

/** An id starting at this token, or null. */
export function idAt(text: string, t: Token | undefined): string | null {
  if (!t) return null;
  const raw = rawRun(text, t.start);
  return looksLikeId(raw) ? raw : null;
}

/** "urn:..." and "tag:..." identifiers anywhere in a text (NewsML guids). */
export function urnsIn(text: string, tokens: readonly Token[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if ((t.norm !== 'URN' && t.norm !== 'TAG') || text.charCodeAt(t.end) !== 58 /* : */) continue;
    let j = t.start;
    while (j < text.length && j - t.start < MAX_URN) {
      const c = text.charCodeAt(j);
      if (c <= 32 || c === 41 || c === 93 || c === 62 || c === 34 || c === 39 || c === 59 || c === 0xa0) break; // space ) ] > " ' ;
      j++;
    }
    const urn = text.slice(t.start, j).replace(/[.,:]+$/, '');
    if (urn.length > 6 && /\d/.test(urn)) out.push(urn);
  }
  return out;
}

// Words between a heading and the ids it names: "KILL NOTICE: epa11213344", "WITHDRAWAL: PA 78910112".
const SKIPPABLE = new Set([
  'IS',
  'WAS',
  'OF',
  'THE',
  'NO',
  'NR',
  'NUM',
  'NUMBER',
  'NUMBERS',
  'ID',
  'IDS',
  'REFERENCE',
  'REF',
  'A',
  'AN',
  'AS',
  'WITH',
  'BY',
  'NOTICE',
  'NOTIFICATION',
  'ADVISORY',
  'ALERT',
  'LA',
  'LE',
  'LES',
  'IL',
  'EL',
  'AP',
  'AFP',
  'REUTERS',
  'GETTY',
  'IMAGES',
  'EPA',
  'EFE',
  'PA',
  'MEDIA',
  'DPA',
  'CP',
  'ANSA',
  'ANP',
  'KYODO',
  'XINHUA',
]);
const LIST = new Set(['AND', 'OR', 'UND', 'ET', 'Y', 'PLUS']);

/**
 * Ids written after token `at` ("transmission reference XYZ123", "photos NYPS101, NYPS102 and
 * NYPS103"). At most 20.
 */
export function idsAfter(text: string, tokens: readonly Token[], at: number): { ids: string[]; next: number } {
  const ids: string[] = [];
  let k = at;
  let skipped = 0;
  while (k < tokens.length && skipped < 3 && !idAt(text, tokens[k]) && SKIPPABLE.has(tokens[k].norm)) {
    k++;
    skipped++;
  }
  while (k < tokens.length && ids.length < 20) {
    const id = idAt(text, tokens[k]);
    if (!id) break;
    ids.push(id);
    const end = tokens[k].start + id.length;
    while (k < tokens.length && tokens[k].start < end) k++;
    if (k >= tokens.length) break;
    const t = tokens[k];
    if (LIST.has(t.norm) && !t.breakBefore) k++;
    else if (!/^[,/&;]+$/.test(t.sep)) break;
  }
  return { ids, next: k };
}
