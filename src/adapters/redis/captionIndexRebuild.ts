import type { Redis } from 'ioredis';
import type { CatalogRecord } from '../../schemas/record';
import { CaptionIndex, type AssignOutcomes } from './captionIndex';
import type { CatalogStore } from './catalogStore';
import { redisKeys } from './keys';

/** Records read and assigned per script round (one assignMany), and patched per atomic replace. */
const CHUNK = 500;
/** A chunk of records rewritten while it was patched (a re-run finalize) is read again, at most this often. */
const MAX_PATCH_RETRIES = 5;

export interface RebuildOptions {
  redis: Redis;
  catalog: CatalogStore;
  /** The catalog's key prefix (PHOTOWIRE_PREFIX); the index lives under `<prefix>:dedup`. */
  prefix: string;
  /** The threshold to build (PHOTOWIRE_DEDUP_THRESHOLD): its base is `<prefix>:dedup:{v2t<threshold>}:`. */
  threshold?: number;
  /** Only batches created at or after this time. */
  since?: Date;
  /** Called after each chunk: captions done so far, and how many the pass has in all. */
  onProgress?: (done: number, total: number) => void;
}

export interface RebuildResult {
  /** The base built and made active. */
  base: string;
  /** The base that was active before (the same when the rebuild ran again after its swap). */
  previous: string;
  batches: number;
  records: number;
  captions: number;
  outcomes: AssignOutcomes;
  /** Batches skipped because an earlier rebuild of this base got past them (its cursor). */
  resumedAfter: string | null;
  /**
   * Records whose stored `cluster` (id, canonical item, similarity, exact, diff) was patched to the
   * new index's after the swap, and the batches whose records were read for it (after the patch
   * cursor `<base>patched`, from `since`).
   */
  patched: number;
  patchedBatches: number;
}

interface Cursor {
  score: number;
  id: string;
}

/**
 * `photowire clusters rebuild`: build the index of the configured threshold and signature version
 * (its own key base) from the catalog's records, batches oldest first (creation time, then id),
 * records in index order, while the active index keeps serving the workers; then, holding the
 * active index's batch lock (no finalize job runs), add the batches that finished meanwhile and
 * swap the pointer `<prefix>:dedup:active` to the new base. Finalize jobs read the pointer again
 * under the lock (`CaptionIndex.withBatchLock`), so a batch finalized after the swap goes to the
 * new index.
 *
 * Idempotent: assign is per item id, so a second rebuild adds nothing. Resumable: the cursor
 * `<base>rebuild` holds the last batch done, counted only over finished batches, so a killed
 * rebuild starts after it (a batch still running is read again the next time).
 *
 * Then the stored records' cluster refs are patched to the new index's (patchRecords below).
 */
export async function rebuildCaptionIndex(opts: RebuildOptions): Promise<RebuildResult> {
  // Key names from the registry (keys.ts): the catalog's batch list and the dedup prefix.
  const keys = redisKeys(opts.prefix);
  const dedupPrefix = keys.dedup.prefix;
  const target = new CaptionIndex(opts.redis, { prefix: dedupPrefix, threshold: opts.threshold, pinned: true });
  const active = new CaptionIndex(opts.redis, { prefix: dedupPrefix, threshold: opts.threshold });
  await active.open();
  const previous = active.keyBase;
  const cursorKey = `${target.keyBase}rebuild`;
  const sinceMs = opts.since ? opts.since.getTime() : -Infinity;
  const result: RebuildResult = {
    base: target.keyBase,
    previous,
    batches: 0,
    records: 0,
    captions: 0,
    outcomes: { created: 0, joined: 0, known: 0 },
    resumedAfter: null,
    patched: 0,
    patchedBatches: 0,
  };
  const saved = await opts.redis.get(cursorKey);
  let cursor: Cursor | null = saved ? (JSON.parse(saved) as Cursor) : null;
  result.resumedAfter = cursor?.id ?? null;

  // The catalog's batch list (zset `{<prefix>:catalog}:batches`, batch id -> creation ms).
  /** Batches after the cursor (and from `since`), oldest first. */
  const pending = async (after: Cursor | null = cursor): Promise<string[]> => {
    const from = Math.max(sinceMs, after?.score ?? -Infinity);
    const raw = await opts.redis.zrangebyscore(keys.batches, Number.isFinite(from) ? from : '-inf', '+inf', 'WITHSCORES');
    const out: string[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const id = raw[i];
      const score = Number(raw[i + 1]);
      if (after && (score < after.score || (score === after.score && id <= after.id))) continue;
      out.push(id);
    }
    return out;
  };

  const seen = new Set<string>();
  /** One pass over the pending batches; moves the cursor over the finished ones in a row. */
  const pass = async (): Promise<void> => {
    const ids = await pending();
    const ledgers = [];
    for (const id of ids) {
      const l = await opts.catalog.getBatch(id);
      if (l) ledgers.push(l);
    }
    const total = ledgers.reduce((n, l) => n + l.expected, 0);
    let done = 0;
    let contiguous = true;
    if (total > 0) opts.onProgress?.(0, total);
    for (const l of ledgers) {
      for (let from = 0; from < l.expected; from += CHUNK) {
        const indexes = Array.from({ length: Math.min(CHUNK, l.expected - from) }, (_, i) => from + i);
        const values = await opts.catalog.rawRecords(l.id, indexes);
        const items: Array<{ itemId: string; caption: string }> = [];
        for (const v of values) {
          if (v === null) continue;
          const r = JSON.parse(v) as CatalogRecord;
          result.records++;
          // What clusterBatch clusters: ok items whose cleaned caption has words.
          if (r.error === null && r.caption.trim() !== '') items.push({ itemId: r.id, caption: r.caption });
        }
        const refs = await target.assignMany(items, result.outcomes);
        result.captions += refs.filter((x) => x !== null).length;
        done += indexes.length;
        opts.onProgress?.(done, total);
      }
      seen.add(l.id);
      result.batches = seen.size;
      // A running batch is read again by the next pass (its finalize may still add captions).
      if (l.state !== 'done') contiguous = false;
      if (contiguous) {
        const score = Number(await opts.redis.zscore(keys.batches, l.id));
        cursor = { score, id: l.id };
        await opts.redis.set(cursorKey, JSON.stringify(cursor));
      }
    }
  };

  await target.withBatchLock('clusters rebuild', async () => {
    await pass();
    // The batches finished meanwhile, then the swap, with no finalize job running on the old index.
    const swap = async () => {
      await pass();
      await target.activate();
    };
    // Rebuilt again after its swap: the target is the active index, its lock is already ours.
    if (previous === target.keyBase) await swap();
    else await active.withBatchLock('clusters rebuild (swap)', swap);
  });
  await patchRecords(opts, target, pending, result);
  return result;
}

/**
 * After the swap: the stored records' `cluster` refs still name the old index's clusters (and
 * diffs against its canonical captions). Patch them to what the new index holds for them
 * (`CaptionIndex.refsOf`, read-only), batch by batch oldest first, a chunk of 500 at a time, each
 * chunk in one atomic replace that applies only if every record is still stored as read
 * (`CatalogStore.replaceRecords`: a chunk rewritten in between, by a re-run finalize, is read
 * again). The record's facets (the API's `?cluster=` filter, the batch's cluster counters) move
 * with it. Idempotent: a record already naming its new cluster is left alone. Resumable: the
 * cursor `<base>patched` moves over finished batches, so a patch stopped half way (the swap is
 * done) goes on from there on the next `clusters rebuild`. Records with no cluster yet (a batch
 * still running: its finalize decides them in the new index) and records not in the new index
 * are left as they are. `probableResend` and the kill store's cluster groups are not recomputed.
 */
async function patchRecords(
  opts: RebuildOptions,
  target: CaptionIndex,
  pending: (after: Cursor | null) => Promise<string[]>,
  result: RebuildResult,
): Promise<void> {
  const patchKey = `${target.keyBase}patched`;
  const saved = await opts.redis.get(patchKey);
  const cursor: Cursor | null = saved ? (JSON.parse(saved) as Cursor) : null;
  let contiguous = true;
  for (const id of await pending(cursor)) {
    const l = await opts.catalog.getBatch(id);
    if (!l) continue;
    result.patchedBatches++;
    for (let from = 0; from < l.expected; from += CHUNK) {
      const indexes = Array.from({ length: Math.min(CHUNK, l.expected - from) }, (_, i) => from + i);
      for (let attempt = 0; ; attempt++) {
        const n = await patchChunk(opts.catalog, target, l.id, indexes);
        if (n !== null) {
          result.patched += n;
          break;
        }
        if (attempt >= MAX_PATCH_RETRIES) throw new Error(`clusters rebuild: batch ${l.id} records ${from}-${from + indexes.length - 1} kept changing while their clusters were patched`);
      }
    }
    if (l.state !== 'done') contiguous = false;
    if (contiguous) {
      const score = Number(await opts.redis.zscore(redisKeys(opts.prefix).batches, l.id));
      await opts.redis.set(patchKey, JSON.stringify({ score, id: l.id } satisfies Cursor));
    }
  }
}

/** One chunk: the new index's refs for the records that have a cluster; replace what differs. Null when a record changed underneath. */
async function patchChunk(catalog: CatalogStore, target: CaptionIndex, batchId: string, indexes: number[]): Promise<number | null> {
  const raw = await catalog.rawRecords(batchId, indexes);
  const rows: Array<{ index: number; before: string; record: CatalogRecord }> = [];
  raw.forEach((text, i) => {
    if (text === null) return;
    const record = JSON.parse(text) as CatalogRecord;
    if (record.cluster !== null && record.error === null && record.caption.trim() !== '') rows.push({ index: indexes[i], before: text, record });
  });
  const refs = await target.refsOf(rows.map((r) => ({ itemId: r.record.id, caption: r.record.caption })));
  const changes: Array<{ index: number; before: string; after: string }> = [];
  rows.forEach((r, i) => {
    const ref = refs[i];
    if (ref === null || JSON.stringify(ref) === JSON.stringify(r.record.cluster)) return;
    changes.push({ index: r.index, before: r.before, after: JSON.stringify({ ...r.record, cluster: ref }) });
  });
  if (!(await catalog.replaceRecords(batchId, changes))) return null;
  return changes.length;
}
