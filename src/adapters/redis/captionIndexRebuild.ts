import type { Redis } from 'ioredis';
import type { CatalogRecord } from '../../schemas/record';
import { SubjectIndex, type AssignOutcomes } from './captionIndexSubject';
import type { CatalogStore } from './catalogStore';
import { keysStartingWith, redisKeys } from './keys';
import { deleteMatching } from './scan';

/** Records read and assigned per call (what the finalize job sends), and patched per atomic replace. */
const CHUNK = 500;
/** A chunk of records rewritten while it was patched (a re-run item) is read again, at most this often. */
const MAX_PATCH_RETRIES = 5;

export interface RebuildOptions {
  redis: Redis;
  catalog: CatalogStore;
  /** The catalog's key prefix (PHOTOWIRE_PREFIX). */
  prefix: string;
  /** Called after each chunk: records done so far, and how many the catalog has in all. */
  onProgress?: (done: number, total: number) => void;
}

export interface RebuildResult {
  /** The index's key base. */
  base: string;
  batches: number;
  records: number;
  /** Records with a caption the rule reads (the others have no cluster). */
  captions: number;
  outcomes: AssignOutcomes;
  /** Records whose stored `cluster` changed (id, canonical item, similarity, exact, diff, why). */
  patched: number;
  /** Keys of the old threshold index (`<p>:dedup:*`) deleted. */
  oldKeysDeleted: number;
}

/**
 * `photowire clusters rebuild`: a fresh caption-cluster index from the catalog. Holding the index's
 * batch lock the whole time (finalize jobs wait for it, so none assigns meanwhile), it deletes the
 * index, assigns every clusterable record of every batch (oldest first: creation time, then id;
 * records in index order, as the finalize job does), and patches each record's `cluster` to its new
 * answer in atomic steps that apply only if the record is still stored as read (a chunk rewritten
 * in between is read again; assign is idempotent per item id). Then the fingerprint is written and
 * the old threshold index's keys are deleted, so nothing refuses the index afterwards.
 *
 * Not resumable on purpose: the index is marked `rebuilding` until the end and refused meanwhile,
 * so a rebuild that stops half way is simply run again (it starts from nothing). The lock waits of
 * finalize jobs bound how long it may take without them failing (10 minutes each, then BullMQ
 * retries the job). `probableResend` and the kill store's cluster groups are not recomputed.
 */
export async function rebuildCaptionIndex(opts: RebuildOptions): Promise<RebuildResult> {
  const keys = redisKeys(opts.prefix);
  const index = new SubjectIndex(opts.redis, { prefix: opts.prefix });
  const result: RebuildResult = {
    base: index.keys.base,
    batches: 0,
    records: 0,
    captions: 0,
    outcomes: { created: 0, joined: 0, known: 0 },
    patched: 0,
    oldKeysDeleted: 0,
  };
  await index.rebuild('clusters rebuild', async (assign) => {
    // The catalog's batch list (zset, batch id -> creation ms), oldest first.
    const ids = await opts.redis.zrange(keys.batches, '0', '-1');
    const ledgers = [];
    for (const id of ids) {
      const l = await opts.catalog.getBatch(id);
      if (l) ledgers.push(l);
    }
    const total = ledgers.reduce((n, l) => n + l.expected, 0);
    let done = 0;
    opts.onProgress?.(0, total);
    for (const l of ledgers) {
      result.batches++;
      for (let from = 0; from < l.expected; from += CHUNK) {
        const indexes = Array.from({ length: Math.min(CHUNK, l.expected - from) }, (_, i) => from + i);
        for (let attempt = 0; ; attempt++) {
          const n = await rebuildChunk(opts.catalog, assign, l.id, indexes, result, attempt === 0);
          if (n !== null) {
            result.patched += n;
            break;
          }
          if (attempt >= MAX_PATCH_RETRIES)
            throw new Error(
              `clusters rebuild: batch ${l.id} records ${from}-${from + indexes.length - 1} kept changing while their clusters were written`,
            );
        }
        done += indexes.length;
        opts.onProgress?.(done, total);
      }
    }
  });
  // Every key of the old threshold index: its bases and its pointer (the prefix has no glob characters: redisKeys checks it).
  result.oldKeysDeleted = await deleteMatching(opts.redis, keysStartingWith(keys.dedup.prefix));
  return result;
}

/** One chunk: assign, then replace the records whose cluster changed. Null when a record changed underneath. */
async function rebuildChunk(
  catalog: CatalogStore,
  assign: (
    items: ReadonlyArray<{ itemId: string; caption: string }>,
    outcomes?: AssignOutcomes,
  ) => Promise<Array<CatalogRecord['cluster'] | null>>,
  batchId: string,
  indexes: number[],
  result: RebuildResult,
  count: boolean,
): Promise<number | null> {
  const raw = await catalog.rawRecords(batchId, indexes);
  const rows: Array<{ index: number; before: string; record: CatalogRecord }> = [];
  const changes: Array<{ index: number; before: string; after: string }> = [];
  raw.forEach((text, i) => {
    if (text === null) return;
    const record = JSON.parse(text) as CatalogRecord;
    if (count) result.records++;
    // What clusterBatch clusters: ok items whose cleaned caption has words; the others have none.
    if (record.error === null && record.caption.trim() !== '') rows.push({ index: indexes[i], before: text, record });
    else if (record.cluster)
      changes.push({ index: indexes[i], before: text, after: JSON.stringify({ ...record, cluster: null }) });
  });
  const refs = await assign(
    rows.map((r) => ({ itemId: r.record.id, caption: r.record.caption })),
    count ? result.outcomes : undefined,
  );
  if (count) result.captions += refs.filter((x) => x !== null).length;
  rows.forEach((r, i) => {
    const ref = refs[i] ?? null;
    if (JSON.stringify(ref) === JSON.stringify(r.record.cluster ?? null)) return;
    changes.push({ index: r.index, before: r.before, after: JSON.stringify({ ...r.record, cluster: ref }) });
  });
  if (!(await catalog.replaceRecords(batchId, changes))) return null;
  return changes.length;
}
