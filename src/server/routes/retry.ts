import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { retryItems, type RetryDeps } from '../../queues/retryItems';
import { batchIdParam, itemIdParam, retryOutcomeSchema } from '../apiSchemas';
import { notFound } from '../httpError';
import type { ApiDocs } from '../openapi';
import { jsonRoute } from '../route';

export function retryRoutes(app: FastifyInstance, docs: ApiDocs, deps: RetryDeps): void {
  const common = {
    method: 'POST' as const,
    tag: 'retry',
    description: 'what was queued again, what was already queued, and what a retry cannot fix',
    response: retryOutcomeSchema,
    status: 202,
    errors: { 404: 'no such batch or item' },
  };
  jsonRoute(
    app,
    docs,
    { ...common, url: '/api/batches/:batchId/retry', summary: "Retry a batch's failed items; records.ndjson and the ledger update when they end", params: z.object({ batchId: batchIdParam }) },
    async ({ params: { batchId } }) => {
      const out = await retryItems(deps, batchId);
      if (!out || out.batchId !== batchId) throw notFound(`no batch ${batchId}`);
      return out;
    },
  );
  jsonRoute(
    app,
    docs,
    { ...common, url: '/api/items/:itemId/retry', summary: 'Retry one failed item (idempotent: a second call while it is queued adds nothing)', params: z.object({ itemId: itemIdParam }) },
    async ({ params: { itemId } }) => {
      const out = await retryItems(deps, itemId);
      if (!out || out.batchId === itemId) throw notFound(`no item ${itemId}`);
      return out;
    },
  );
}
