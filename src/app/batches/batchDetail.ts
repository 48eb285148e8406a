import { Job } from 'bullmq';
import type { PipelineContext } from '../pipelineContext';
import { failuresNow } from './failedNow';
import { jobIds } from '../../queues/definitions';
import { PENDING_JOB_STATES } from './retryItems';
import type { BatchOverviews } from './batchOverview';
import { PhotowireError } from '../../core/errors';

/** How many failed items are looked up in the queue for "retry under way" (the rest show false). */
const RETRY_LOOKUPS = 1000;
/**
 * How many failed items of a done batch have their photo looked for where a retry reads it (the
 * rest are offered by their error code alone): one job read and one stat each, ~0.3 ms here.
 */
const PHOTO_CHECKS = 200;

/**
 * `GET /api/batches/:batchId`: the batch's overview, warnings, article and failed items, each with
 * whether a retry is under way and whether a retry can help. An archived batch answers
 * read-only from its summary.json: nothing retrying, nothing retryable (a retry is 409 BATCH_ARCHIVED).
 */
export async function batchDetail(deps: { ctx: PipelineContext; overviews: BatchOverviews }, batchId: string) {
  const found = await deps.overviews.get(batchId);
  if (!found) throw new PhotowireError('NOT_FOUND', `no batch ${batchId}`);
  if (found.ledger === null) {
    const a = found.archived;
    return {
      ...found.overview,
      warningList: a.warnings,
      article: null,
      failures: a.failures.map((f) => ({ ...f, retrying: false, retryable: false })),
    };
  }
  const failures = await deps.ctx.catalog.getFailed(batchId);
  // A retry reopens the ledger, so a finished batch has nothing in flight: skip the job lookups.
  const retrying = new Set<string>();
  if (found.ledger.state !== 'done') {
    for (const f of failures.slice(0, RETRY_LOOKUPS)) {
      const job = await Job.fromId(deps.ctx.queues.queue('item'), jobIds.item(f.itemId));
      if (job && PENDING_JOB_STATES.has(await job.getState())) retrying.add(f.itemId);
    }
  }
  // Sources where they are now (a hot folder moved the drop to processed/), and a retry offered only where the photo is there to read.
  const now = await failuresNow(
    { redis: deps.ctx.redis, prefix: deps.ctx.config.prefix, queues: deps.ctx.queues },
    found.ledger,
    failures,
    { checkPhotos: found.ledger.state === 'done' ? PHOTO_CHECKS : 0 },
  );
  return {
    ...found.overview,
    warningList: found.ledger.warnings,
    article: found.ledger.article,
    failures: now.map((f) => ({ ...f, retrying: retrying.has(f.itemId) })),
  };
}
