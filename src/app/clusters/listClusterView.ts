import { itemIdFor } from '../../core/ids';
import { recordsOfItems } from '../clusterMembers';
import type { PipelineContext } from '../pipelineContext';

type Listed = Awaited<ReturnType<PipelineContext['captions']['listClusters']>>[number];
type Member = Listed['members'][number];
type StoredRecord = NonNullable<Awaited<ReturnType<typeof recordsOfItems>> extends Map<string, infer R> ? R : never>;

/** A cluster as `photowire clusters` shows it: each member with its credit line, its diff and why it joined, and the story it is in. */
export type ClusterView = Omit<Listed, 'members'> & {
  members: Array<
    Member & {
      credit: string | null;
      diff?: NonNullable<StoredRecord['cluster']>['diff'];
      why?: NonNullable<StoredRecord['cluster']>['why'];
    }
  >;
  /** The story of the cluster's canonical caption (or, without one, its first member with a story), as it is now; null when none has one. */
  story: { id: string; size: number } | null;
};

/** Most members of a story read to find its clusters (a larger story lists the clusters of its first ones). */
export const STORY_MEMBERS_READ = 10_000;

/**
 * Clusters of at least `minSize` captions, biggest first, touching one batch when `batch` is given
 * (its item ids come from the ledger: ids are made from batch and position, so its records are not
 * read), touching one story's members when `story` is given; members carry
 * their credit line, cluster.diff and cluster.why, read from the members' records only, and each cluster its
 * story. `null` when the batch or the story is unknown.
 */
export async function listClusterView(
  ctx: Pick<PipelineContext, 'catalog' | 'captions' | 'stories'>,
  opts: { batch?: string; story?: string; minSize: number },
): Promise<ClusterView[] | null> {
  let itemIds: string[] | undefined;
  if (opts.batch) {
    const ledger = await ctx.catalog.getBatch(opts.batch);
    if (!ledger) return null;
    const batchId = opts.batch;
    itemIds = Array.from({ length: ledger.expected }, (_, i) => itemIdFor(batchId, i));
  }
  if (opts.story) {
    // The clusters of a story: those touching its members.
    const story = await ctx.stories.getStory(opts.story, STORY_MEMBERS_READ);
    if (!story) return null;
    const inStory = story.members.map((m) => m.itemId);
    if (itemIds) {
      const inBatch = new Set(itemIds);
      itemIds = inStory.filter((id) => inBatch.has(id));
    } else itemIds = inStory;
  }
  const clusters = (await ctx.captions.listClusters({ minSize: opts.minSize, itemIds })).filter(
    (c) => c.size >= opts.minSize,
  );
  clusters.sort((a, b) => b.size - a.size || a.canonicalId.localeCompare(b.canonicalId));
  return viewOf(ctx, clusters);
}

/** One cluster as `photowire clusters show` prints it (every member, its credit, diff and why), or null. */
export async function showClusterView(
  ctx: Pick<PipelineContext, 'catalog' | 'captions' | 'stories'>,
  clusterId: string,
): Promise<ClusterView | null> {
  const c = await ctx.captions.getCluster(clusterId);
  return c === null ? null : (await viewOf(ctx, [c]))[0];
}

async function viewOf(
  ctx: Pick<PipelineContext, 'catalog' | 'captions' | 'stories'>,
  clusters: Listed[],
): Promise<ClusterView[]> {
  const records = await recordsOfItems(
    ctx.catalog,
    clusters.flatMap((c) => c.members.map((m) => m.itemId)),
  );
  const storyOf = (c: Listed): string | null => {
    const canonical = records.get(c.canonicalId)?.story;
    if (canonical) return canonical.id;
    for (const m of c.members) {
      const s = records.get(m.itemId)?.story;
      if (s) return s.id;
    }
    return null;
  };
  const storyIds = clusters.map(storyOf);
  const current = await ctx.stories.resolve(storyIds.filter((s): s is string => s !== null));
  return clusters.map((c, i) => ({
    ...c,
    story: storyIds[i] === null ? null : (current.get(storyIds[i]!) ?? null),
    members: c.members.map((m) => {
      const r = records.get(m.itemId);
      return {
        ...m,
        credit: r?.credit.line ?? null,
        ...(r?.cluster?.diff ? { diff: r.cluster.diff } : {}),
        ...(r?.cluster?.why ? { why: r.cluster.why } : {}),
      };
    }),
  }));
}
