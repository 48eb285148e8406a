import { canonicalCredit, canonicalOrg } from '../../core/credits/orgNames';
import { defaultCreditRules, type CreditRules } from '../../core/credits/rules';
import { agencyIndexName } from '../../core/records/recordFacets';
import { fold as foldText, nameTokens, parseQuery, recordMatches, type SearchTerm } from '../../core/search/query';
import type { CatalogRecord } from '../../schemas/record';
import type { RecordQuery } from '../../schemas/api';

/** Case- and accent-insensitive, so "sao paulo" finds "São Paulo" and "afp" finds "AFP" (src/core/search/query.ts). */
export const fold = (s: string): string => foldText(s);

/**
 * A record as served: credits stored before rules 2026.12.2 held the rules id in `agency`
 * ("GETTY"); they are given the display name and the id, so one organisation has one name on
 * every record (`raw` is untouched).
 */
export function withCanonicalCredit(r: CatalogRecord, rules: CreditRules): CatalogRecord {
  const credit = canonicalCredit(r.credit, rules);
  return credit === r.credit ? r : { ...r, credit };
}

/**
 * The indexes a query's filters name (src/core/records/recordFacets.ts), and what only a scan can
 * answer: the `q` terms (the desk's syntax: words, quoted phrases, `agency:`, `creator:`,
 * `credit:`, `caption:`), and a creator filter without a word in it.
 */
export function planQuery(
  q: RecordQuery,
  rules: CreditRules = defaultCreditRules(),
): { indexes: string[]; terms: SearchTerm[] } {
  const indexes: string[] = [];
  const terms = parseQuery(q.q);
  if (q.cluster) indexes.push(`c:${q.cluster}`);
  if (q.failed !== undefined) indexes.push(q.failed ? 'failed' : 'ok');
  if (q.lowConfidence) indexes.push('low');
  if (q.agency && q.agency.trim()) indexes.push(agencyIndexName(rules, q.agency));
  if (q.creator && q.creator.trim()) {
    const words = nameTokens(q.creator);
    if (words.length) indexes.push(...words.map((w) => `p:${w}`));
    else terms.push({ field: 'creator', text: fold(q.creator.trim()) });
  }
  return { indexes, terms };
}

/** What the page reader needs of the catalog (CatalogStore has it). */
export interface RecordPages {
  getRecordsPage(
    batchId: string,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; records: CatalogRecord[] }>;
  indexPage(
    batchId: string,
    names: string[],
    start: number,
    stop: number,
    keepSeconds?: number,
  ): Promise<{ total: number; indexes: number[] }>;
  recordsAt(batchId: string, indexes: number[]): Promise<Array<CatalogRecord | null>>;
}

export interface RecordPageResult {
  /** Records matching; with `exact: false`, an upper bound (a `q` scan that stopped at its bound). */
  total: number;
  exact: boolean;
  records: CatalogRecord[];
  /** The `offset` of the next page (index filters, or none), null after the last. */
  nextOffset: number | null;
  /** A `q` search: where the next page's scan starts (`cursor=`), null when the scan reached the end. */
  nextCursor: number | null;
  /** Records read to answer (the page itself for index filters; the scanned ones for `q`). */
  scanned: number;
}

/**
 * Records a `q` search reads at most per request. The first page (no cursor) reads on past its
 * end up to it to count the matches (the total is exact when the scan reaches the end within it,
 * an upper bound otherwise); a next page (`cursor`) stops once full. A search of a 100,000-item
 * batch reads at most 2,000 records per request and pages on with `cursor`.
 */
export const SCAN_BOUND = 2000;
const SCAN_CHUNK = 200;

/**
 * One page of a batch's records, reading only that page: without filters, batch indexes
 * offset..offset+limit-1; with filters (cluster, agency, creator, lowConfidence, failed), the
 * ranks offset..offset+limit-1 of their indexes' intersection, kept by the step that stores a
 * record. `q` scans the candidates (the whole batch, or the indexes' intersection) from `cursor`
 * in feed order, at most SCAN_BOUND records, and says where to go on.
 */
export async function readRecordPage(
  store: RecordPages,
  batchId: string,
  q: RecordQuery & { cursor?: number },
  opts: { expected: number; running?: boolean; rules?: CreditRules },
): Promise<RecordPageResult> {
  const rules = opts.rules ?? defaultCreditRules();
  const { indexes, terms } = planQuery(q, rules);
  const keep = opts.running ? 2 : 30;
  if (terms.length === 0) {
    if (indexes.length === 0) {
      const { total, records } = await store.getRecordsPage(batchId, { offset: q.offset, limit: q.limit });
      const next = q.offset + q.limit;
      return {
        total,
        exact: true,
        records: records.map((r) => withCanonicalCredit(r, rules)),
        nextOffset: next < opts.expected ? next : null,
        nextCursor: null,
        scanned: records.length,
      };
    }
    const page = await store.indexPage(batchId, indexes, q.offset, q.offset + q.limit - 1, keep);
    const records = (await store.recordsAt(batchId, page.indexes))
      .filter((r): r is CatalogRecord => r !== null)
      .map((r) => withCanonicalCredit(r, rules));
    const next = q.offset + q.limit;
    return {
      total: page.total,
      exact: true,
      records,
      nextOffset: next < page.total ? next : null,
      nextCursor: null,
      scanned: records.length,
    };
  }

  // A scan of the candidates in feed order: by rank in the indexes' intersection, or by batch index.
  const start = q.cursor ?? 0;
  const readAt = async (
    from: number,
  ): Promise<{ end: number; rows: Array<{ rank: number; record: CatalogRecord }> }> => {
    if (indexes.length === 0) {
      const idx = Array.from({ length: Math.max(0, Math.min(SCAN_CHUNK, opts.expected - from)) }, (_, i) => from + i);
      const records = await store.recordsAt(batchId, idx);
      return { end: opts.expected, rows: records.flatMap((record, i) => (record ? [{ rank: from + i, record }] : [])) };
    }
    const page = await store.indexPage(batchId, indexes, from, from + SCAN_CHUNK - 1, keep);
    const records = await store.recordsAt(batchId, page.indexes);
    return { end: page.total, rows: records.flatMap((record, i) => (record ? [{ rank: from + i, record }] : [])) };
  };
  const page: CatalogRecord[] = [];
  let matches = 0;
  let scanned = 0;
  let pos = start;
  let end = indexes.length === 0 ? opts.expected : Number.POSITIVE_INFINITY;
  let afterPage = -1;
  // The first page goes on counting past its end (up to the bound) for an exact total; the next ones stop when full.
  while (pos < end && scanned < SCAN_BOUND && !(start > 0 && page.length === q.limit)) {
    const chunk = await readAt(pos);
    end = chunk.end;
    if (pos >= end) break;
    for (const { rank, record } of chunk.rows) {
      scanned++;
      const served = withCanonicalCredit(record, rules);
      if (!recordMatches(served, terms)) continue;
      matches++;
      if (matches > q.offset && page.length < q.limit) {
        page.push(served);
        if (page.length === q.limit) afterPage = rank + 1;
      }
    }
    pos = Math.min(pos + SCAN_CHUNK, end);
  }
  const reachedEnd = pos >= end;
  let nextCursor: number | null;
  if (page.length === q.limit) nextCursor = reachedEnd && matches === q.offset + q.limit ? null : afterPage;
  else nextCursor = reachedEnd ? null : pos;
  const exact = reachedEnd && start === 0;
  return {
    total: exact ? matches : matches + Math.max(0, end - pos),
    exact,
    records: page,
    nextOffset: null,
    nextCursor,
    scanned,
  };
}

/**
 * Filter records held in memory (feed order kept) and cut one page: the same filters as
 * readRecordPage, for a batch opened from storage. `agency` finds every shape of one
 * organisation: "getty", "GETTY", "Getty Images" and "GettyImages" all find the records whose
 * agency is Getty Images, stored as `GETTY` or as `Getty Images`.
 */
export function queryRecords(
  stored: CatalogRecord[],
  q: RecordQuery,
  rules: CreditRules = defaultCreditRules(),
): { total: number; page: CatalogRecord[] } {
  const matches = recordFilter(q, rules);
  const matching = stored.map((r) => withCanonicalCredit(r, rules)).filter((r) => matches(r));
  return { total: matching.length, page: matching.slice(q.offset, q.offset + q.limit) };
}

/**
 * The query's filters as one test of a record (as served: withCanonicalCredit first), for records
 * read from storage (an archived batch's records.ndjson, src/app/retention/archivedBatches.ts) and
 * queryRecords.
 */
export function recordFilter(q: RecordQuery, rules: CreditRules = defaultCreditRules()): (r: CatalogRecord) => boolean {
  const terms = parseQuery(q.q);
  const agency = q.agency ? fold(q.agency.trim()) : null;
  const agencyId = q.agency ? (canonicalOrg(rules, q.agency)?.id ?? null) : null;
  const creatorWords = q.creator ? nameTokens(q.creator) : [];
  return (r) => {
    if (q.cluster && r.cluster?.id !== q.cluster) return false;
    if (q.failed !== undefined && (r.error !== null) !== q.failed) return false;
    if (q.lowConfidence && (r.error !== null || r.credit.confidence !== 'low')) return false;
    if (
      agency !== null &&
      (agencyId !== null ? r.credit.agencyId !== agencyId : fold(r.credit.agency ?? '') !== agency)
    )
      return false;
    if (creatorWords.length) {
      const words = new Set(r.credit.creators.flatMap((c) => nameTokens(c)));
      if (!creatorWords.every((w) => words.has(w))) return false;
    }
    return terms.length === 0 || recordMatches(r, terms);
  };
}

/** Does the query filter at all (cluster, agency, creator, lowConfidence, failed, q)? */
export function hasFilter(q: RecordQuery): boolean {
  return !!(
    q.cluster ||
    (q.agency && q.agency.trim()) ||
    (q.creator && q.creator.trim()) ||
    q.lowConfidence ||
    q.failed !== undefined ||
    parseQuery(q.q).length > 0
  );
}
