import { canonicalCredit, canonicalOrg } from '../core/credits/orgNames';
import { defaultCreditRules, type CreditRules } from '../core/credits/rules';
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
    [r.caption, r.title ?? '', r.headline ?? '', c.line ?? '', c.agency ?? '', c.agencyId ?? '', c.distributor ?? '', c.distributorId ?? '', ...c.creators, ...c.partners, r.source.file, r.error?.message ?? ''].join('\n'),
  );
}

/**
 * A record as served: credits stored before rules 2026.12.2 held the rules id in `agency`
 * ("GETTY"); they are given the display name and the id, so one organisation has one name on
 * every record (`raw` is untouched).
 */
function withCanonicalCredit(r: CatalogRecord, rules: CreditRules): CatalogRecord {
  const credit = canonicalCredit(r.credit, rules);
  return credit === r.credit ? r : { ...r, credit };
}

/**
 * Filter a batch's records (feed order kept) and cut one page. `agency` finds every shape of one
 * organisation: "getty", "GETTY", "Getty Images" and "GettyImages" all find the records whose
 * agency is Getty Images, stored as `GETTY` or as `Getty Images`.
 */
export function queryRecords(
  stored: CatalogRecord[],
  q: RecordQuery,
  rules: CreditRules = defaultCreditRules(),
): { total: number; page: CatalogRecord[] } {
  const records = stored.map((r) => withCanonicalCredit(r, rules));
  const words = q.q ? fold(q.q).split(/\s+/).filter(Boolean) : [];
  const agency = q.agency ? fold(q.agency.trim()) : null;
  const agencyId = q.agency ? (canonicalOrg(rules, q.agency)?.id ?? null) : null;
  const creator = q.creator ? fold(q.creator.trim()) : null;
  const matching = records.filter((r) => {
    if (q.cluster && r.cluster?.id !== q.cluster) return false;
    if (q.failed !== undefined && (r.error !== null) !== q.failed) return false;
    if (q.lowConfidence && (r.error !== null || r.credit.confidence !== 'low')) return false;
    if (agency !== null && (agencyId !== null ? r.credit.agencyId !== agencyId : fold(r.credit.agency ?? '') !== agency)) return false;
    if (creator !== null && !r.credit.creators.some((c) => fold(c).includes(creator))) return false;
    if (words.length) {
      const text = searchText(r);
      if (!words.every((w) => text.includes(w))) return false;
    }
    return true;
  });
  return { total: matching.length, page: matching.slice(q.offset, q.offset + q.limit) };
}
