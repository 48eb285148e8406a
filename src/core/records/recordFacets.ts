import { createHash } from 'node:crypto';
import { canonicalCredit, canonicalOrg } from '../credits/orgNames';
import type { CreditRules } from '../credits/rules';
import { splitItemId } from '../ids';
import type { CatalogRecord } from '../../schemas/record';
import { fold, nameTokens } from '../search/query';

/**
 * What one stored record adds to its batch's counters and indexes (the catalog's MARK_ITEM and
 * REPLACE_RECORDS steps move them in the same atomic step that stores the record, and keep them
 * with it, so a record replaced later takes back exactly what it had added). Pure.
 *
 * - `c`: counters of the batch's stats hash this record adds 1 to (COUNTERS, and
 *   `joined:<batch>` for a record that joined a cluster begun in another batch);
 * - `k`: its cluster (the batch counts members per cluster: `clusters` is how many have any);
 * - `d`: a digest of its caption (`distinctCaptions` is how many digests have any record);
 * - `i`: the indexes it belongs to (sorted sets of batch indexes): `ok`/`failed`, `low`,
 *   `c:<cluster id>`, `a:<org id>` or `a:=<folded name>` (its agency), `p:<word>` (words of its
 *   creators' names).
 * Only records that are not failed count in photos, caption-only, clusters, captions,
 * near-duplicates, joined-earlier and low-confidence credits (the summary's meaning since 0.1).
 */
export interface RecordFacets {
  c: string[];
  k?: string;
  d?: string;
  i: string[];
}

export const COUNTERS = [
  'records',
  'photos',
  'captionOnly',
  'lowConfidence',
  'duplicates',
  'identical',
  'joinedEarlier',
  'failedRecords',
] as const;
export type CounterName = (typeof COUNTERS)[number];

/**
 * The counter of the records that joined a cluster begun in batch `batchId`: a summary of the
 * feeds of one run (`run a b c`, `ingest --wait a b c`) reads it for the run's other batches,
 * which are not earlier batches but the same night's (see summarizeBatch).
 */
export function joinedFromCounter(batchId: string): string {
  return `joined:${batchId}`;
}

/** The agency index of a credit's agency, or of a text asked for (`agency=getty`): one org, one name. */
export function agencyIndexName(rules: CreditRules, text: string): string {
  const org = canonicalOrg(rules, text.trim());
  return org ? `a:${org.id}` : `a:=${fold(text.trim())}`;
}

export function captionDigest(caption: string): string {
  return createHash('sha1').update(caption).digest('base64').slice(0, 16);
}

export function recordFacets(r: CatalogRecord, rules: CreditRules): RecordFacets {
  const credit = canonicalCredit(r.credit, rules);
  const index: string[] = [r.error ? 'failed' : 'ok'];
  if (r.cluster) index.push(`c:${r.cluster.id}`);
  if (credit.agencyId) index.push(`a:${credit.agencyId}`);
  else if (credit.agency && credit.agency.trim()) index.push(`a:=${fold(credit.agency.trim())}`);
  const words = new Set(credit.creators.flatMap((c) => nameTokens(c)));
  for (const w of words) index.push(`p:${w}`);
  if (r.error) return { c: ['records', 'failedRecords'], i: index };
  const counters: string[] = ['records', r.image ? 'photos' : 'captionOnly'];
  if (credit.confidence === 'low') {
    counters.push('lowConfidence');
    index.push('low');
  }
  const f: RecordFacets = { c: counters, i: index };
  if (r.cluster) {
    f.k = r.cluster.id;
    // Item ids are `<batchId>-0007` (itemIdFor): the canonical item's batch is its id less the suffix.
    const canonicalBatch = splitItemId(r.cluster.canonicalId)?.batchId ?? r.cluster.canonicalId;
    if (canonicalBatch !== r.batchId) counters.push('joinedEarlier', joinedFromCounter(canonicalBatch));
    else if (r.cluster.canonicalId !== r.id) {
      // `duplicates` counts every copy of a caption begun in this batch; `identical` those whose
      // caption is the canonical one word for word (the card says "identical captions" for them).
      counters.push('duplicates');
      if (r.cluster.exact) counters.push('identical');
    }
  }
  if (r.caption.trim() !== '') f.d = captionDigest(r.caption);
  return f;
}
