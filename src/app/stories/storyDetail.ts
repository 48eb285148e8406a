import { recordsOfItems } from '../clusterMembers';
import type { PipelineContext } from '../pipelineContext';
import { presentRecords } from '../presentRecords';
import { PhotowireError } from '../../core/errors';
import { currentStories } from './storyRefs';

/**
 * `GET /api/stories/:storyId`: the story as the desk shows it, story -> clusters -> versions
 *. Its first `maxMembers` members (join order) are read, their records by batch index,
 * and grouped by caption cluster (each record's `cluster.id`), biggest cluster first; each
 * member says why it is in the story. A cluster's `size` counts its members in every story
 * (a resend whose background was dropped is in the cluster but in no story).
 */
export async function storyDetail(ctx: PipelineContext, storyId: string, maxMembers: number) {
  const story = await ctx.stories.getStory(storyId, maxMembers);
  if (!story) throw new PhotowireError('NOT_FOUND', `no story ${storyId}`);
  const found = [
    ...(
      await recordsOfItems(
        ctx.catalog,
        story.members.map((m) => m.itemId),
      )
    ).values(),
  ];
  const records = new Map((await currentStories(ctx, await presentRecords(ctx, found))).map((r) => [r.id, r]));
  type Group = { id: string | null; members: typeof story.members };
  const groups = new Map<string | null, Group>();
  for (const m of story.members) {
    const clusterId = records.get(m.itemId)?.cluster?.id ?? null;
    const g = groups.get(clusterId) ?? { id: clusterId, members: [] };
    g.members.push(m);
    groups.set(clusterId, g);
  }
  const clusters = await Promise.all(
    [...groups.values()].map(async (g) => {
      const info = g.id ? await ctx.captions.getCluster(g.id) : null;
      return {
        id: g.id,
        canonicalId: info?.canonicalId ?? null,
        canonicalCaption: info?.canonicalCaption ?? null,
        size: info?.size ?? g.members.length,
        members: g.members.map((m) => ({ itemId: m.itemId, via: m.via, record: records.get(m.itemId) ?? null })),
      };
    }),
  );
  // Biggest first in this story, then by the first member's join turn (the order they were listed in).
  clusters.sort((a, b) => b.members.length - a.members.length);
  return { id: story.id, size: story.size, membersShown: story.members.length, clusters };
}
