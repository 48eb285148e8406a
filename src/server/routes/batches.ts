import { Job, type Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PipelineContext } from '../../workers/pipelineContext';
import { retryCanHelp } from '../../core/errors';
import { jobIds } from '../../queues/definitions';
import { PENDING_JOB_STATES } from '../../queues/retryItems';
import { batchDetailSchema, batchIdParam, batchListQuery, batchListSchema, recordPageSchema, recordQuerySchema } from '../apiSchemas';
import type { BatchOverviews } from '../batchOverview';
import { notFound } from '../httpError';
import type { ApiDocs } from '../openapi';
import { queryRecords } from '../recordQuery';
import { jsonRoute } from '../route';
import { presentRecords } from '../../app/presentRecords';

export function batchRoutes(app: FastifyInstance, docs: ApiDocs, deps: { ctx: PipelineContext; overviews: BatchOverviews; itemQueue: Queue }): void {
  const { ctx, overviews, itemQueue } = deps;
  const params = z.object({ batchId: batchIdParam });

  jsonRoute(
    app,
    docs,
    {
      method: 'GET',
      url: '/api/batches',
      tag: 'batches',
      summary: 'Batches of the last days, newest first, with live ledger counts',
      description: 'the batches',
      query: batchListQuery,
      response: batchListSchema,
    },
    async ({ query }) => (await overviews.listWithRuns(query)),
  );

  jsonRoute(
    app,
    docs,
    {
      method: 'GET',
      url: '/api/batches/:batchId',
      tag: 'batches',
      summary: "A batch's ledger, counts, warnings and failed items (each with whether a retry is under way)",
      description: 'the batch',
      params,
      response: batchDetailSchema,
      errors: { 404: 'no such batch' },
    },
    async ({ params: { batchId } }) => {
      const found = await overviews.get(batchId);
      if (!found) throw notFound(`no batch ${batchId}`);
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

  jsonRoute(
    app,
    docs,
    {
      method: 'GET',
      url: '/api/batches/:batchId/records',
      tag: 'records',
      summary: "A batch's catalog records in feed order, paged and filtered",
      description: 'one page of records',
      params,
      query: recordQuerySchema,
      response: recordPageSchema,
      errors: { 404: 'no such batch' },
    },
    async ({ params: { batchId }, query }) => {
      if (!(await ctx.catalog.getBatch(batchId))) throw notFound(`no batch ${batchId}`);
      // kill status and embargo state merged at read time (issue 16, src/app/presentRecords.ts)
      const { total, page } = queryRecords(await presentRecords(ctx, await ctx.catalog.getRecords(batchId)), query);
      return { batchId, total, offset: query.offset, limit: query.limit, records: page };
    },
  );
}
