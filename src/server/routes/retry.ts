import { z } from 'zod';
import { retryItems, type RetryDeps } from '../../app/batches/retryItems';
import { batchIdParam, itemIdParam, retryOutcomeSchema } from '../../schemas/api';
import { notFound } from '../httpError';
import type { PipelineContext } from '../../app/pipelineContext';
import { responses, type ZodApp } from '../zodApi';

type Deps = RetryDeps & { ctx: RetryDeps['ctx'] & Pick<PipelineContext, 'exports'> };

export function retryRoutes(app: ZodApp, deps: Deps): void {
  const response = responses(
    { 202: [retryOutcomeSchema, 'what was queued again, what was already queued, and what a retry cannot fix'] },
    {
      400: 'not a batch or item id',
      404: 'no such batch or item',
      409: 'the batch is archived (BATCH_ARCHIVED): read-only',
    },
  );
  app.post(
    '/api/batches/:batchId/retry',
    {
      schema: {
        tags: ['retry'],
        summary: "Retry a batch's failed items; records.ndjson and the ledger update when they end",
        params: z.object({ batchId: batchIdParam }),
        response,
      },
    },
    async ({ params: { batchId } }, reply) => {
      const out = await retryItems(deps, batchId);
      if (!out || out.batchId !== batchId) throw notFound(`no batch ${batchId}`);
      return reply.code(202).send(out);
    },
  );
  app.post(
    '/api/items/:itemId/retry',
    {
      schema: {
        tags: ['retry'],
        summary: 'Retry one failed item (idempotent: a second call while it is queued adds nothing)',
        params: z.object({ itemId: itemIdParam }),
        response,
      },
    },
    async ({ params: { itemId } }, reply) => {
      const out = await retryItems(deps, itemId);
      if (!out || out.batchId === itemId) throw notFound(`no item ${itemId}`);
      return reply.code(202).send(out);
    },
  );
}
