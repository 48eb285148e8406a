import { z } from 'zod';
import type { PipelineContext } from '../../app/pipelineContext';
import { clusterSchema } from '../apiSchemas';
import { notFound } from '../httpError';
import { responses, type ZodApp } from '../zodApi';
import { presentRecords } from '../../app/presentRecords';
import { recordsOfItems } from '../../app/clusterMembers';

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
      // The shown members' records only, by batch index (never a whole batch), kills merged (issue 16).
      const found = [...(await recordsOfItems(ctx.catalog, shown.map((m) => m.itemId))).values()];
      const records = new Map((await presentRecords(ctx, found)).map((r) => [r.id, r]));
      return {
        id: cluster.id,
        canonicalId: cluster.canonicalId,
        canonicalCaption: cluster.canonicalCaption,
        size: cluster.size,
        membersShown: shown.length,
        members: shown.map((m) => ({ ...m, record: records.get(m.itemId) ?? null })),
      };
    },
  );
}
