import { presentRecords } from '../app/presentRecords';
import type { PipelineContext } from '../app/pipelineContext';
import { defaultCreditRules } from '../core/credits/rules';
import { listRecord } from '../core/records/listRecord';
import type { RecordQuery } from './apiSchemas';
import type { BatchOverviews } from './batchOverview';
import { notFound } from './httpError';
import { hasFilter, readRecordPage, recordFilter, withCanonicalCredit } from './recordQuery';

/**
 * `GET /api/batches/:batchId/records`: one page of a batch's records in feed order. Only the page is
 * read (index filters, or a bounded scan for q; src/server/recordQuery.ts, issue 14); an archived
 * batch's page is read from records.ndjson in storage as it streams by. Kill status and embargo
 * state are merged at read time (issue 16, src/app/presentRecords.ts).
 */
export async function recordsPage(deps: { ctx: PipelineContext; overviews: BatchOverviews }, batchId: string, query: RecordQuery) {
  const { ctx, overviews } = deps;
  const page = { batchId, offset: query.offset, limit: query.limit };
  const ledger = await ctx.catalog.getBatch(batchId);
  if (!ledger) {
    const archived = await overviews.archivedSummary(batchId);
    if (!archived) throw notFound(`no batch ${batchId}`);
    const rules = defaultCreditRules();
    const read = await overviews.archive.page(batchId, query, {
      matches: hasFilter(query) ? recordFilter(query, rules) : undefined,
      present: (r) => withCanonicalCredit(r, rules),
      items: archived.items,
    });
    if (!read) throw notFound(`no batch ${batchId}`);
    const records = (await presentRecords(ctx, read.records)).map(listRecord);
    return { ...page, archived: true, total: read.total, exact: true, nextOffset: read.nextOffset, nextCursor: null, records };
  }
  const out = await readRecordPage(ctx.catalog, batchId, query, { expected: ledger.expected, running: ledger.state !== 'done' });
  // a page never carries more than LIST_RECORD_MAX_CHARS of a record (src/core/records/listRecord.ts)
  const records = (await presentRecords(ctx, out.records)).map(listRecord);
  return { ...page, total: out.total, exact: out.exact, nextOffset: out.nextOffset, nextCursor: out.nextCursor, records };
}
