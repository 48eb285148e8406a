import { z } from 'zod';
import type { CatalogRecord } from '../../schemas/record';
import type { PipelineContext } from '../../workers/pipelineContext';
import { clusterSchema } from '../apiSchemas';
import { notFound } from '../httpError';
import { responses, type ZodApp } from '../zodApi';
import { presentRecords } from '../../app/presentRecords';

const ITEM_ID = /^(.+)-(\d{4,})$/;

export function clusterRoutes(app: ZodApp, ctx: PipelineContext, opts: { maxMembers: number }): void {
  app.get(
    '/api/clusters/:clusterId',
    {
      schema: {
        tags: ['clusters'],
        summary: 'A caption cluster: its canonical caption and its members (from every batch) with their records',
        params: z.object({ clusterId: z.string().regex(/^[0-9a-f]{16}$/, 'a cluster id: 16 hex digits') }),
        response: responses({ 200: [clusterSchema, 'the cluster'] }, { 400: 'not a cluster id', 404: 'no such cluster' }),
      },
    },
    async ({ params: { clusterId } }) => {
      const cluster = await ctx.captions.getCluster(clusterId);
      if (!cluster) throw notFound(`no cluster ${clusterId}`);
      const shown = cluster.members.slice(0, opts.maxMembers);
      // Members live in their batches' record hashes: read each batch once.
      const byBatch = new Map<string, Map<string, CatalogRecord>>();
      for (const m of shown) {
        const batchId = ITEM_ID.exec(m.itemId)?.[1];
        if (!batchId || byBatch.has(batchId)) continue;
        byBatch.set(batchId, new Map((await presentRecords(ctx, await ctx.catalog.getRecords(batchId))).map((r) => [r.id, r]))); // kills merged (issue 16)
      }
      return {
        id: cluster.id,
        canonicalId: cluster.canonicalId,
        canonicalCaption: cluster.canonicalCaption,
        size: cluster.size,
        membersShown: shown.length,
        members: shown.map((m) => ({ ...m, record: byBatch.get(ITEM_ID.exec(m.itemId)?.[1] ?? '')?.get(m.itemId) ?? null })),
      };
    },
  );
}
