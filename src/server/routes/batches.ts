import { z } from 'zod';
import type { PipelineContext } from '../../app/pipelineContext';
import {
  batchDetailSchema,
  batchIdParam,
  batchListQuery,
  batchListSchema,
  recordPageSchema,
  recordQuerySchema,
} from '../../schemas/api';
import { batchDetail } from '../../app/batches/batchDetail';
import type { BatchOverviews } from '../../app/batches/batchOverview';
import { recordsPage } from '../../app/records/recordsPage';
import { responses, type ZodApp } from '../zodApi';

export function batchRoutes(app: ZodApp, deps: { ctx: PipelineContext; overviews: BatchOverviews }): void {
  const { overviews } = deps;
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
    async ({ params: { batchId } }) => await batchDetail(deps, batchId),
  );

  app.get(
    '/api/batches/:batchId/records',
    {
      schema: {
        tags: ['records'],
        summary: "A batch's catalog records in feed order, paged and filtered",
        params,
        querystring: recordQuerySchema,
        response: responses(
          { 200: [recordPageSchema, 'one page of records'] },
          { 400: 'a bad id or query', 404: 'no such batch' },
        ),
      },
    },
    async ({ params: { batchId }, query }) => await recordsPage(deps, batchId, query),
  );
}
