import type { FlowProducer } from 'bullmq';
import type { LoadedFeed } from '../adapters/feeds/loadFeed';
import type { CatalogStore, CreateOutcome } from '../adapters/redis/catalogStore';
import { itemIdFor } from '../core/ids';
import type { BatchJob, ItemJob } from '../schemas/jobs';
import { JOBS, QUEUES, batchJobOptions, itemJobOptions, jobIds } from './definitions';

export interface EnqueueResult {
  batchId: string;
  /** false when this feed (same path, same content) was taken before. */
  created: boolean;
  /** `repaired`: a partial ledger (a crash of an older version, Redis that lost its data) was completed from the feed. */
  ledger: CreateOutcome;
  expected: number;
}

/**
 * A batch is a BullMQ flow: the finalize job is the parent of one job per item, so it runs
 * exactly when the last item has ended. Job ids derive from content ids, so adding the same
 * feed again (a re-drop, or a crash between ledger and flow) adds nothing twice.
 */
export async function enqueueFeed(
  deps: { catalog: CatalogStore; flow: FlowProducer; prefix: string; attempts: number },
  feed: LoadedFeed,
): Promise<EnqueueResult> {
  const { created, outcome } = await deps.catalog.createBatch({
    id: feed.batchId,
    feed: feed.feedPath,
    format: feed.format,
    expected: feed.items.length,
    warnings: feed.warnings,
    article: feed.article,
    skipped: feed.skipped,
  });
  const ledger = await deps.catalog.getBatch(feed.batchId);
  if (ledger?.state === 'done') return { batchId: feed.batchId, created, ledger: outcome, expected: ledger.expected };

  // The index in feed.items (dense, 0..expected-1) names the item and keys its record; the item's
  // place in the feed stays in item.source.position (a NewsML-G2 picture after a text item is 1).
  const children = feed.items.map((item, index) => {
    const itemId = itemIdFor(feed.batchId, index);
    const data: ItemJob = { batchId: feed.batchId, itemId, index, root: feed.root, item };
    return { name: JOBS.processItem, queueName: QUEUES.item, data, opts: { ...itemJobOptions(deps.attempts), jobId: jobIds.item(itemId) } };
  });
  const data: BatchJob = { batchId: feed.batchId };
  await deps.flow.add({
    name: JOBS.finalizeBatch,
    queueName: QUEUES.batch,
    data,
    opts: { ...batchJobOptions(deps.attempts), jobId: jobIds.batch(feed.batchId) },
    children,
  });
  return { batchId: feed.batchId, created, ledger: outcome, expected: feed.items.length };
}
