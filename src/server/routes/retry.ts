import { z } from 'zod';
import { retryItems, type RetryDeps } from '../../app/batches/retryItems';
import { batchIdParam, itemIdParam, retryOutcomeSchema } from '../../schemas/api';
import { HttpError, notFound } from '../httpError';
import type { PipelineContext } from '../../app/pipelineContext';
import { archivedBatches } from '../../app/retention/retentionRuntime';
import { archivedRetryRefusal } from '../../app/retention/archivedBatches';
import { parseItemId } from '../../core/ids';
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
      if (!out || out.batchId !== batchId) throw await refusal(deps, batchId, `no batch ${batchId}`);
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
      if (!out || out.batchId === itemId)
        throw await refusal(deps, parseItemId(itemId)?.batchId ?? itemId, `no item ${itemId}`);
      return reply.code(202).send(out);
    },
  );
}

/** 409 BATCH_ARCHIVED for a batch the retention pass archived (read-only: its records are in storage, its failed items expired); 404 otherwise. */
async function refusal(deps: Deps, batchId: string, missing: string): Promise<HttpError> {
  const archived = await archivedBatches({
    redis: deps.redis,
    config: deps.config,
    catalog: deps.ctx.catalog,
    exports: deps.ctx.exports,
  }).open(batchId);
  if (!archived) return notFound(missing);
  return new HttpError('BATCH_ARCHIVED', archivedRetryRefusal(archived));
}
