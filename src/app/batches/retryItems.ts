import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { FlowJob } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../config';
import { loadAnyFeed, type FeedStorage } from '../../adapters/feeds/loadStorageFeed';
import { batchIndexOf, type CatalogStore, type FailedItem } from '../../adapters/redis/catalogStore';
import { redisKeys } from '../../adapters/redis/keys';
import { DropMoves } from '../../adapters/redis/dropMoves';
import { relocateItem, relocatePath, type Moves } from '../../core/feeds/relocate';
import { PhotowireError, isInputError } from '../../core/errors';
import type { BatchExportStore } from '../../adapters/storage/batchExports';
import { archivedBatches } from '../retention/retentionRuntime';
import { archivedRetryRefusal } from '../retention/archivedBatches';
import { parseItemId } from '../../core/ids';
import type { BatchJob, ItemJob } from '../../schemas/jobs';
import type { Logger } from '../../logger';
import { JOBS, QUEUES, batchJobOptions, itemJobOptions, jobIds } from '../../queues/definitions';
import { CarryingJobs } from '../../queues/itemJobs';
import type { Queues } from '../../queues/queues';

/** What retrying needs; a `Runtime` has all of it. */
export interface RetryDeps {
  config: Config;
  /** The catalog, logger, storage and queues of the pipeline context (src/app/pipelineContext.ts): a feed in storage is reloaded through the port. */
  ctx: { catalog: CatalogStore; logger: Logger; storage: FeedStorage; queues: Queues; exports: BatchExportStore };
  redis: Redis;
}

export interface RetryOutcome {
  batchId: string;
  /** Failed items put back in the queue by this call. */
  retried: string[];
  /** Failed items whose retry is already queued or running (a second click): nothing was added for them. */
  pending: string[];
  /** Items a retry cannot change, with why (not failed, or the feed itself is bad at that item). */
  skipped: Array<{ itemId: string; reason: string }>;
  /** The job that rewrites records.ndjson and summary.json once the retried items have ended; null when nothing was retried. */
  finalizeJobId: string | null;
}

/** BullMQ states of a job that is still to run (or running). */
export const PENDING_JOB_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'paused',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
]);
/** A retry claim outlives any sane queue wait; it only guards against adding the same retry twice. */
const CLAIM_TTL_S = 7 * 24 * 3600;

/**
 * Put a batch's failed items (or one failed item) back in the queue, under a new finalize job
 * that rewrites the batch's records.ndjson and summary.json once they have ended. The ledger is
 * reopened, so the batch shows as running until then, and each item's outcome moves the ok/failed
 * counts once. Idempotent: each failure (item + time it failed) is claimed once, so a double
 * click or two operators add one retry; an item that fails again can be retried again.
 *
 * `id` is a batch id or an item id (`<batchId>-0007`). Returns null when neither exists.
 */
export async function retryItems(rt: RetryDeps, id: string): Promise<RetryOutcome | null> {
  const { catalog } = rt.ctx;
  let batchId = id;
  let itemId: string | null = null;
  let ledger = await catalog.getBatch(id);
  if (!ledger) {
    const item = parseItemId(id);
    ledger = item ? await catalog.getBatch(item.batchId) : null;
    if (!ledger || !item) {
      // An archived batch is read-only: its records are in storage and its failed items expired.
      const archived = await archivedBatches({ ...rt, catalog, exports: rt.ctx.exports }).open(item?.batchId ?? id);
      if (archived) throw new PhotowireError('BATCH_ARCHIVED', archivedRetryRefusal(archived));
      return null;
    }
    if (item.index >= ledger.expected) return null;
    batchId = item.batchId;
    itemId = id;
  }

  const out: RetryOutcome = { batchId, retried: [], pending: [], skipped: [], finalizeJobId: null };
  const failures = (await catalog.getFailed(batchId)).filter((f) => itemId === null || f.itemId === itemId);
  if (itemId !== null && failures.length === 0) {
    out.skipped.push({ itemId, reason: 'the item has not failed' });
    return out;
  }

  const carrying = new CarryingJobs(rt.ctx.queues);
  const children: FlowJob[] = [];
  const claimed: string[] = [];
  const moves = new DropMoves(rt.redis, rt.config.prefix);
  let feedItems: Promise<Map<number, ItemJob>> | null = null;
  // An item of a chunk of caption-only items is found in its chunk's job (src/core/itemChunks.ts)
  // and retried as an item job of its own; the chunk's job stays (it carried the others).
  for (const f of failures) {
    const found = await carrying.find({
      batchId,
      itemId: f.itemId,
      index: f.index ?? f.position,
      expected: ledger.expected,
    });
    const job = found?.job;
    const state = job ? await job.getState() : 'unknown';
    // A chunk still running holds other items: this item's failure is recorded, so it can go again now.
    if (PENDING_JOB_STATES.has(state) && !found?.chunk) {
      out.pending.push(f.itemId);
      continue;
    }
    let payload: ItemJob | undefined = found?.data ?? undefined;
    if (!payload) {
      // The job is gone (cleaned from the queue board): rebuild the item from the feed, if it still reads the same.
      feedItems ??= reloadFeedItems(
        rt,
        batchId,
        ledger.feed,
        failures.map((x) => x.index ?? x.position),
      );
      payload = (await feedItems).get(f.index ?? f.position);
      if (!payload) {
        out.skipped.push({
          itemId: f.itemId,
          reason: `its job is gone and ${ledger.feed} no longer has this item: ingest the feed again`,
        });
        continue;
      }
    }
    // A hot folder moved the drop to processed/ when the batch ended: read the item from there.
    payload = await whereItIsNow(moves, ledger.feed, payload);
    // A delivery's picture that had not arrived may be there now (put beside the moved feed): read it again.
    if (payload.item.error?.code === 'PICTURE_MISSING')
      payload = { ...payload, item: { ...payload.item, error: undefined } };
    if (payload.item.error) {
      out.skipped.push({
        itemId: f.itemId,
        reason: `${payload.item.error.code}: the feed itself is bad at this item; fix the feed and ingest it again (a changed feed is a new batch)`,
      });
      continue;
    }
    const claim = claimKey(rt.config.prefix, batchId, f);
    if ((await rt.redis.set(claim, '1', 'EX', CLAIM_TTL_S, 'NX')) !== 'OK') {
      out.pending.push(f.itemId);
      continue;
    }
    claimed.push(claim);
    // Before the job is added: its failing again is a new round, whose attempts add to these.
    await catalog.markRetryQueued(batchId, f.itemId, f.at);
    // A failed job keeps its id: it must go before the same id can be added under the retry's finalize job.
    if (job && !found?.chunk) await job.remove();
    children.push({
      name: JOBS.processItem,
      queueName: QUEUES.item,
      data: payload,
      opts: { ...itemJobOptions(rt.config.attempts), jobId: jobIds.item(f.itemId) },
    });
    out.retried.push(f.itemId);
  }
  if (children.length === 0) return out;

  const claimsId = createHash('sha256').update(claimed.join('\n')).digest('hex').slice(0, 12);
  const finalizeJobId = `${jobIds.batch(batchId)}-retry-${claimsId}`;
  const wasDone = ledger.state === 'done';
  // Reopen before adding: a quick retry could otherwise finish first and be left looking unfinished.
  // The reopen is a new round: only this finalize job may close the batch now, so an earlier
  // round's finalize that runs late (retried by BullMQ after a failure) cannot say "done"
  // while the items queued here are still to run.
  const round = await catalog.reopenBatch(batchId);
  try {
    const data: BatchJob = round > 0 ? { batchId, round } : { batchId };
    await rt.ctx.queues.flow.add({
      name: JOBS.finalizeBatch,
      queueName: QUEUES.batch,
      data,
      opts: { ...batchJobOptions(rt.config.attempts), jobId: finalizeJobId },
      children,
    });
  } catch (err) {
    await catalog.rewindRound(batchId, round);
    if (wasDone) await catalog.finishBatch(batchId);
    await rt.redis.del(...claimed);
    throw err;
  }
  out.finalizeJobId = finalizeJobId;
  rt.ctx.logger.info({ batchId, retried: out.retried, finalizeJobId }, 'failed items queued again');
  return out;
}

/** In the batch's slot, so the claims of one retry are deleted in one command on a cluster too. */
function claimKey(prefix: string, batchId: string, f: FailedItem): string {
  return redisKeys(prefix).retryClaim(batchId, f.itemId, f.at);
}

/**
 * The feed's items by batch index, for failed items whose job is gone; only items that are still
 * the same item. Reads the records of the failed items only (`indexes`), never the whole batch.
 */
async function reloadFeedItems(
  rt: RetryDeps,
  batchId: string,
  feedPath: string,
  indexes: number[],
): Promise<Map<number, ItemJob>> {
  const byIndex = new Map<number, ItemJob>();
  const found = await rt.ctx.catalog.recordsAt(batchId, indexes);
  const records = new Map(found.flatMap((r) => (r ? [[batchIndexOf(r), r] as const] : [])));
  // A feed a hot folder took is in processed/ now, under the batch's recorded move.
  const moved = await new DropMoves(rt.redis, rt.config.prefix).lookup(batchId, [
    feedPath,
    ...[...records.values()].map((r) => r.source.file),
  ]);
  const now = (p: string) => relocatePath(p, moved) ?? p;
  try {
    const feed = await loadAnyFeed(rt.ctx.storage, now(feedPath), rt.config.maxFeedBytes);
    feed.items.forEach((item, index) => {
      const record = records.get(index);
      if (!record) return;
      // The same content (same batch id) is the same items; otherwise only an item that still sits
      // where the record says it came from (or was moved to) is the same item.
      if (feed.batchId !== batchId && now(record.source.file) !== item.source.file) return;
      byIndex.set(index, { batchId, itemId: record.id, index, root: feed.root, item });
    });
  } catch (err) {
    if (!isInputError(err)) throw err;
  }
  return byIndex;
}

/** A regular file there now (the photo a retry would read). */
export function isFileNow(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The item's payload with its photo and source where they are now (src/core/feeds/relocate.ts). */
export async function whereItIsNow(moves: DropMoves, feed: string, payload: ItemJob): Promise<ItemJob> {
  const paths = [payload.item.image, payload.item.source.file, feed].filter((p): p is string => typeof p === 'string');
  const found: Moves = await moves.lookup(payload.batchId, paths);
  const item = relocateItem(payload.item, feed, found, isFileNow);
  return item === payload.item ? payload : { ...payload, item };
}
