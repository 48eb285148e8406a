import { activePointerKey } from '../../adapters/redis/captionIndex';
import { itemIdFor } from '../../core/ids';
import { recordsOfItems } from '../clusterMembers';
import type { PipelineContext } from '../pipelineContext';

type Listed = Awaited<ReturnType<PipelineContext['captions']['listClusters']>>[number];
type Member = Listed['members'][number];
type StoredRecord = NonNullable<Awaited<ReturnType<typeof recordsOfItems>> extends Map<string, infer R> ? R : never>;

/** A cluster as `photowire clusters` shows it: each member with its credit line and its diff. */
export type ClusterView = Omit<Listed, 'members'> & {
  members: Array<Member & { credit: string | null; diff?: NonNullable<StoredRecord['cluster']>['diff'] }>;
};

/**
 * Clusters of at least `minSize` captions, biggest first, touching one batch when `batch` is given
 * (its item ids come from the ledger: ids are made from batch and position, so its records are not
 * read, issue 14); members carry their credit line and cluster.diff, read from the members' records
 * only. `null` when the batch is unknown.
 */
export async function listClusterView(
  ctx: Pick<PipelineContext, 'catalog' | 'captions'>,
  opts: { batch?: string; minSize: number },
): Promise<ClusterView[] | null> {
  let itemIds: string[] | undefined;
  if (opts.batch) {
    const ledger = await ctx.catalog.getBatch(opts.batch);
    if (!ledger) return null;
    const batchId = opts.batch;
    itemIds = Array.from({ length: ledger.expected }, (_, i) => itemIdFor(batchId, i));
  }
  const clusters = (await ctx.captions.listClusters({ minSize: opts.minSize, itemIds })).filter((c) => c.size >= opts.minSize);
  clusters.sort((a, b) => b.size - a.size || a.canonicalId.localeCompare(b.canonicalId));
  const records = await recordsOfItems(ctx.catalog, clusters.flatMap((c) => c.members.map((m) => m.itemId)));
  return clusters.map((c) => ({
    ...c,
    members: c.members.map((m) => {
      const r = records.get(m.itemId);
      return { ...m, credit: r?.credit.line ?? null, ...(r?.cluster?.diff ? { diff: r.cluster.diff } : {}) };
    }),
  }));
}

/** The key that names the active caption index (printed by `clusters rebuild`). */
export const activeIndexKey = (prefix: string): string => activePointerKey(`${prefix}:dedup`);
