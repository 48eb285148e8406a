import type { Redis } from 'ioredis';
import type { CatalogRecord } from '../../schemas/record';
import { CaptionIndex, type AssignOutcomes } from './captionIndex';
import type { CatalogStore } from './catalogStore';

/** Records read and assigned per script round (one assignMany). */
const CHUNK = 500;

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
 * Records keep the cluster refs of the index they were decided in (docs/DEDUP.md "rebuild").
 */
export async function rebuildCaptionIndex(opts: RebuildOptions): Promise<RebuildResult> {
  const dedupPrefix = `${opts.prefix}:dedup`;
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
  };
  const saved = await opts.redis.get(cursorKey);
  let cursor: Cursor | null = saved ? (JSON.parse(saved) as Cursor) : null;
  result.resumedAfter = cursor?.id ?? null;

  // The catalog's batch list (CatalogStore: zset `<prefix>:batches`, batch id -> creation ms).
  /** Batches after the cursor (and from `since`), oldest first. */
  const pending = async (): Promise<string[]> => {
    const from = Math.max(sinceMs, cursor?.score ?? -Infinity);
    const raw = await opts.redis.zrangebyscore(`${opts.prefix}:batches`, Number.isFinite(from) ? from : '-inf', '+inf', 'WITHSCORES');
    const out: string[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const id = raw[i];
      const score = Number(raw[i + 1]);
      if (cursor && (score < cursor.score || (score === cursor.score && id <= cursor.id))) continue;
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
        const score = Number(await opts.redis.zscore(`${opts.prefix}:batches`, l.id));
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
  return result;
}
