import { failuresNow, type FailedNow } from './failedNow';
import type { PipelineContext } from '../pipelineContext';
import { archivedBatches } from '../retention/retentionRuntime';
import { archivedRetryRefusal } from '../retention/archivedBatches';
import { expiresAt } from '../../core/retention/plan';
import { PhotowireError } from '../../core/errors';

export interface FailedListing extends FailedNow {
  batchId: string;
  /** When the item expires (leaves Redis with its batch, retention): finishedAt + PHOTOWIRE_RETENTION_DAYS; null while the batch runs. */
  expiresAt: string | null;
}

/** How many recent batches `failed` looks through without a batch. */
export const RECENT_BATCHES = 50;

/**
 * Failed items with their code, message, attempts and where their source is now: one batch, or
 * the recent ones; null for an unknown batch. An archived batch (retention) is refused with
 * BATCH_ARCHIVED: its records are in its export, not in Redis.
 */
export async function listFailed(
  ctx: Pick<PipelineContext, 'catalog' | 'config' | 'redis' | 'exports'>,
  batch?: string,
): Promise<FailedListing[] | null> {
  let batchIds: string[];
  if (batch) {
    if (!(await ctx.catalog.getBatch(batch))) {
      const archived = await archivedBatches(ctx).open(batch);
      if (archived)
        throw new PhotowireError(
          'BATCH_ARCHIVED',
          `${archivedRetryRefusal(archived)} (\`photowire export ${batch}\` reads its records)`,
        );
      return null;
    }
    batchIds = [batch];
  } else {
    batchIds = await ctx.catalog.listBatches(RECENT_BATCHES);
  }
  const listing: FailedListing[] = [];
  for (const batchId of batchIds) {
    const failed = await ctx.catalog.getFailed(batchId);
    const ledger = failed.length ? await ctx.catalog.getBatch(batchId) : null;
    const expires = ledger?.state === 'done' ? expiresAt(ledger.finishedAt, ctx.config.retentionDays) : null;
    // Where each source is now: a hot folder moves the drop to processed/<day>/ when the batch ends.
    const now = await failuresNow(
      { redis: ctx.redis, prefix: ctx.config.prefix },
      ledger ?? { id: batchId, feed: '', expected: 0 },
      failed,
    );
    for (const f of now) listing.push({ batchId, ...f, expiresAt: expires });
  }
  return listing;
}
