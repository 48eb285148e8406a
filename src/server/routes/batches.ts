import { Job, type Queue } from 'bullmq';
import { z } from 'zod';
import type { PipelineContext } from '../../app/pipelineContext';
import { retryCanHelp } from '../../core/errors';
import { jobIds } from '../../queues/definitions';
import { PENDING_JOB_STATES } from '../../queues/retryItems';
import { batchDetailSchema, batchIdParam, batchListQuery, batchListSchema, recordPageSchema, recordQuerySchema } from '../apiSchemas';
import type { BatchOverviews } from '../batchOverview';
import { notFound } from '../httpError';
import { hasFilter, readRecordPage, recordFilter, withCanonicalCredit } from '../recordQuery';
import { responses, type ZodApp } from '../zodApi';
import { presentRecords } from '../../app/presentRecords';
import { defaultCreditRules } from '../../core/credits/rules';

export function batchRoutes(app: ZodApp, deps: { ctx: PipelineContext; overviews: BatchOverviews; itemQueue: Queue }): void {
  const { ctx, overviews, itemQueue } = deps;
  const params = z.object({ batchId: batchIdParam });

  app.get(
    '/api/batches',
    {
      schema: {
        tags: ['batches'],
        summary: 'Batches of the last days, newest first, with live ledger counts',
        querystring: batchListQuery,
        response: responses({ 200: [batchListSchema, 'the batches'] }, { 400: 'a bad query' }),
      },
    },
    async ({ query }) => await overviews.listWithRuns(query),
  );

  app.get(
    '/api/batches/:batchId',
    {
      schema: {
        tags: ['batches'],
        summary: "A batch's ledger, counts, warnings and failed items (each with whether a retry is under way)",
        params,
        response: responses({ 200: [batchDetailSchema, 'the batch'] }, { 400: 'not a batch id', 404: 'no such batch' }),
      },
    },
    async ({ params: { batchId } }) => {
      const found = await overviews.get(batchId);
      if (!found) throw notFound(`no batch ${batchId}`);
      if (found.ledger === null) {
        // Archived (issue 14): read-only, its failures as summary.json has them; a retry is refused (409 BATCH_ARCHIVED).
        const a = found.archived;
        return {
          ...found.overview,
          warningList: a.warnings,
          article: null,
          failures: a.failures.map((f) => ({ ...f, retrying: false, retryable: false })),
        };
      }
      const failures = await ctx.catalog.getFailed(batchId);
      // A retry reopens the ledger, so a finished batch has nothing in flight: skip the job lookups.
      const retrying = new Set<string>();
      if (found.ledger.state !== 'done') {
        for (const f of failures.slice(0, 1000)) {
          const job = await Job.fromId(itemQueue, jobIds.item(f.itemId));
          if (job && PENDING_JOB_STATES.has(await job.getState())) retrying.add(f.itemId);
        }
      }
      return {
        ...found.overview,
        warningList: found.ledger.warnings,
        article: found.ledger.article,
        failures: failures.map((f) => ({ ...f, retrying: retrying.has(f.itemId), retryable: retryCanHelp(f.code) })),
      };
    },
  );

  app.get(
    '/api/batches/:batchId/records',
    {
      schema: {
        tags: ['records'],
        summary: "A batch's catalog records in feed order, paged and filtered",
        params,
        querystring: recordQuerySchema,
        response: responses({ 200: [recordPageSchema, 'one page of records'] }, { 400: 'a bad id or query', 404: 'no such batch' }),
      },
    },
    async ({ params: { batchId }, query }) => {
      const ledger = await ctx.catalog.getBatch(batchId);
      if (!ledger) {
        // Archived (issue 14): the page is read from records.ndjson in storage as it streams by.
        const archived = await overviews.archivedSummary(batchId);
        if (!archived) throw notFound(`no batch ${batchId}`);
        const rules = defaultCreditRules();
        const page = await overviews.archive.page(batchId, query, {
          matches: hasFilter(query) ? recordFilter(query, rules) : undefined,
          present: (r) => withCanonicalCredit(r, rules),
          items: archived.items,
        });
        if (!page) throw notFound(`no batch ${batchId}`);
        const records = await presentRecords(ctx, page.records);
        return { batchId, archived: true, total: page.total, exact: true, offset: query.offset, limit: query.limit, nextOffset: page.nextOffset, nextCursor: null, records };
      }
      // Only the page is read: index filters, or a bounded scan for q (src/server/recordQuery.ts, issue 14).
      const out = await readRecordPage(ctx.catalog, batchId, query, { expected: ledger.expected, running: ledger.state !== 'done' });
      // kill status and embargo state merged at read time (issue 16, src/app/presentRecords.ts)
      const records = await presentRecords(ctx, out.records);
      return { batchId, total: out.total, exact: out.exact, offset: query.offset, limit: query.limit, nextOffset: out.nextOffset, nextCursor: out.nextCursor, records };
    },
  );
}
