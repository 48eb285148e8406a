import type { CatalogRecord } from '../schemas/record';
import type { RecordQuery } from './apiSchemas';

/** Case- and accent-insensitive, so "sao paulo" finds "São Paulo" and "afp" finds "AFP". */
export function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function searchText(r: CatalogRecord): string {
  const c = r.credit;
  return fold(
    [r.caption, r.title ?? '', r.headline ?? '', c.line ?? '', c.agency ?? '', c.distributor ?? '', ...c.creators, ...c.partners, r.source.file, r.error?.message ?? ''].join('\n'),
  );
}

/** Filter a batch's records (feed order kept) and cut one page. */
export function queryRecords(records: CatalogRecord[], q: RecordQuery): { total: number; page: CatalogRecord[] } {
  const words = q.q ? fold(q.q).split(/\s+/).filter(Boolean) : [];
  const agency = q.agency ? fold(q.agency.trim()) : null;
  const creator = q.creator ? fold(q.creator.trim()) : null;
  const matching = records.filter((r) => {
    if (q.cluster && r.cluster?.id !== q.cluster) return false;
    if (q.failed !== undefined && (r.error !== null) !== q.failed) return false;
    if (q.lowConfidence && (r.error !== null || r.credit.confidence !== 'low')) return false;
    if (agency !== null && fold(r.credit.agency ?? '') !== agency) return false;
    if (creator !== null && !r.credit.creators.some((c) => fold(c).includes(creator))) return false;
    if (words.length) {
      const text = searchText(r);
      if (!words.every((w) => text.includes(w))) return false;
    }
    return true;
  });
  return { total: matching.length, page: matching.slice(q.offset, q.offset + q.limit) };
}
