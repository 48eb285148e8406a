import type { CatalogStore } from '../../adapters/redis/catalogStore';
import type { SubjectIndex } from '../../adapters/redis/captionIndexSubject';
import type { KillStore } from '../../adapters/redis/killStore';
import type { PhotoVersions } from '../../adapters/redis/photoVersions';
import type { StoryStore } from '../../adapters/redis/storyStore';
import { captionStoryEvidence } from '../stories/storyEvidence';
import type { CatalogRecord, ClusterRef, StoryRefRecord as StoryRef } from '../../schemas/record';

/** What clustering a batch reads and writes: the batch's records, the caption index, photo versions, the kill store. */
export interface ClusterPorts {
  catalog: Pick<CatalogStore, 'rawRecords' | 'replaceRecords'>;
  captions: Pick<SubjectIndex, 'withBatchLock' | 'assignMany'>;
  /** Run inside the caption index's batch lock (the store relies on it: one assigner at a time). */
  stories: Pick<StoryStore, 'assignMany'>;
  photos: Pick<PhotoVersions, 'isProbableResend'>;
  kills: Pick<KillStore, 'registerMany'>;
}

/** Records read, assigned and patched per step (one atomic replace per chunk). */
const CHUNK = 500;
/** A chunk rewritten in between (a re-run item) is read again, at most this often. */
const MAX_CHUNK_RETRIES = 5;

/** Whether a record takes part in clustering: an ok item whose cleaned caption has words. */
function clusterable(r: CatalogRecord): boolean {
  return r.error === null && r.caption.trim() !== '';
}

function sameRef(a: ClusterRef | StoryRef | null | undefined, b: ClusterRef | StoryRef | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The batch's caption clusters (SubjectIndex: one subject about one picture), decided in feed
 * (index) order: item workers store their
 * records with `cluster: null`, and the finalize job, which BullMQ runs once after every item,
 * calls `assignMany` over the batch's captions in index order and patches each record's `cluster`
 * (with its diff and `why`), `story` and `probableResend` (which needs the canonical item), one atomic replace per
 * chunk of 500. So a batch gets the same partition with 1 worker or 8, in any arrival order.
 *
 * Across batches: the whole assignment runs under the index's batch lock, so two batches never
 * interleave; batches are decided in the order their finalize jobs take the lock (finalize order).
 *
 * Idempotent: `assign` of an item id returns its first answer, so a re-run finalize (a crash, a
 * `photowire retry` round) gives every record the same cluster and writes only what changed.
 * Returns how many records were patched.
 */
export async function clusterBatch(ctx: ClusterPorts, batchId: string, expected: number): Promise<number> {
  return ctx.captions.withBatchLock(`batch ${batchId}`, async () => {
    let patched = 0;
    for (let from = 0; from < expected; from += CHUNK) {
      const indexes = Array.from({ length: Math.min(CHUNK, expected - from) }, (_, i) => from + i);
      for (let attempt = 0; ; attempt++) {
        const out = await clusterChunk(ctx, batchId, indexes);
        if (out !== null) {
          patched += out;
          break;
        }
        if (attempt >= MAX_CHUNK_RETRIES)
          throw new Error(
            `batch ${batchId}: records ${from}-${from + indexes.length - 1} kept changing while their clusters were written`,
          );
      }
    }
    return patched;
  });
}

/** One chunk: assign in index order, patch what changed. Null when a record changed underneath. */
async function clusterChunk(ctx: ClusterPorts, batchId: string, indexes: number[]): Promise<number | null> {
  const raw = await ctx.catalog.rawRecords(batchId, indexes);
  const rows: Array<{ index: number; before: string; record: CatalogRecord }> = [];
  raw.forEach((text, i) => {
    if (text === null) return;
    const record = JSON.parse(text) as CatalogRecord;
    if (clusterable(record)) rows.push({ index: indexes[i], before: text, record });
  });
  const refs = await ctx.captions.assignMany(rows.map((r) => ({ itemId: r.record.id, caption: r.record.caption })));
  // Stories after clusters, in the same order and under the same lock.
  const stories = await ctx.stories.assignMany(
    rows.map((r) => ({ itemId: r.record.id, evidence: captionStoryEvidence(r.record.caption) })),
  );
  const patches: Array<{ row: (typeof rows)[number]; next: CatalogRecord }> = [];
  for (let i = 0; i < rows.length; i++) {
    const { record } = rows[i];
    const cluster = refs[i];
    let probableResend = false;
    if (cluster && cluster.canonicalId !== record.id && record.photo && record.image) {
      probableResend = await ctx.photos.isProbableResend(record.photo, record.image.phash, cluster.canonicalId);
    }
    const story = stories[i];
    if (sameRef(record.cluster, cluster) && sameRef(record.story, story) && record.probableResend === probableResend)
      continue;
    patches.push({ row: rows[i], next: { ...record, cluster, story, probableResend } });
  }
  // The kill store indexes a record by its cluster and the item it resends (killStore.recordGroups):
  // registered again now that they are known, taking the status a killed canonical gives it. Sent
  // together, one pipeline (one round trip per record was most of a caption-only
  // finalize); Redis runs the scripts in the same order as one at a time, and no record's step
  // reads another's answer.
  const statuses = await ctx.kills.registerMany(patches.map((p) => p.next));
  const changes: Array<{ index: number; before: string; after: string }> = patches.map(({ row, next }, i) => {
    const status = statuses[i];
    const { record } = row;
    const after =
      status && (!record.status || record.status === 'active')
        ? {
            ...next,
            status: status.status,
            killedAt: status.killedAt,
            reason: status.reason,
            notice: status.notice,
            supersededBy: status.supersededBy,
          }
        : next;
    return { index: row.index, before: row.before, after: JSON.stringify(after) };
  });
  if (!(await ctx.catalog.replaceRecords(batchId, changes))) return null;
  return changes.length;
}
