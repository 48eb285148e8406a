import { z } from 'zod';
import type { PipelineContext } from '../../app/pipelineContext';
import { clusterListQuerySchema, clusterListSchema, clusterSchema, storySchema } from '../../schemas/api';
import { listClusterView } from '../../app/clusters/listClusterView';
import { storyDetail } from '../../app/stories/storyDetail';
import { currentStories } from '../../app/stories/storyRefs';
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
        response: responses(
          { 200: [clusterSchema, 'the cluster'] },
          { 400: 'not a cluster id', 404: 'no such cluster' },
        ),
      },
    },
    async ({ params: { clusterId } }) => {
      const cluster = await ctx.captions.getCluster(clusterId);
      if (!cluster) throw notFound(`no cluster ${clusterId}`);
      const shown = cluster.members.slice(0, opts.maxMembers);
      // The shown members' records only, by batch index (never a whole batch), kills merged.
      const found = [
        ...(
          await recordsOfItems(
            ctx.catalog,
            shown.map((m) => m.itemId),
          )
        ).values(),
      ];
      const records = new Map((await currentStories(ctx, await presentRecords(ctx, found))).map((r) => [r.id, r]));
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

  app.get(
    '/api/clusters',
    {
      schema: {
        tags: ['clusters'],
        summary:
          "Caption clusters, biggest first: those of one story (story), of one batch (batch), or of at least minSize captions; each with its members' credits and its story",
        querystring: clusterListQuerySchema,
        response: responses(
          { 200: [clusterListSchema, 'the clusters'] },
          { 400: 'a bad query', 404: 'no such batch or story' },
        ),
      },
    },
    async ({ query }) => {
      const minSize = query.minSize ?? (query.story ? 1 : 2);
      const list = await listClusterView(ctx, { batch: query.batch, story: query.story, minSize });
      if (!list)
        throw notFound(
          query.story
            ? `no story ${query.story}${query.batch ? ` or no batch ${query.batch}` : ''}`
            : `no batch ${query.batch}`,
        );
      return {
        total: list.length,
        clusters: list.slice(0, query.limit).map((c) => ({
          id: c.id,
          canonicalId: c.canonicalId,
          canonicalCaption: c.canonicalCaption,
          size: c.size,
          members: c.members
            .slice(0, opts.maxMembers)
            .map((m) => ({ itemId: m.itemId, similarity: m.similarity, exact: m.exact, credit: m.credit })),
          story: c.story,
        })),
      };
    },
  );

  app.get(
    '/api/stories/:storyId',
    {
      schema: {
        tags: ['clusters'],
        summary:
          'A story (captions sharing an assignment background or slug): its clusters, each with its members (versions) and why each is in the story',
        params: z.object({ storyId: z.string().regex(/^[0-9a-f]{16}$/, 'a story id: 16 hex digits') }),
        response: responses({ 200: [storySchema, 'the story'] }, { 400: 'not a story id', 404: 'no such story' }),
      },
    },
    async ({ params: { storyId } }) => await storyDetail(ctx, storyId, opts.maxMembers),
  );
}
