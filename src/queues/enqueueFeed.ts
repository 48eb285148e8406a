import type { FlowJob, FlowProducer } from 'bullmq';
import type { LoadedFeed } from '../adapters/feeds/loadFeed';
import type { CatalogStore, CreateOutcome } from '../adapters/redis/catalogStore';
import { itemIdFor } from '../core/ids';
import { planItemJobs } from '../core/itemChunks';
import type { BatchJob, ItemChunkJob, ItemJob } from '../schemas/jobs';
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
 * A batch is a BullMQ flow: the finalize job is the parent of one job per photo and one job per
 * chunk of caption-only items (src/core/itemChunks.ts; PHOTOWIRE_CHUNK_SIZE 1: one job per item),
 * so it runs exactly when the last item has ended. Job ids derive from content ids and index
 * ranges, so adding the same feed again (a re-drop, or a crash between ledger and flow) adds
 * nothing twice.
 */
export async function enqueueFeed(
  deps: { catalog: CatalogStore; flow: FlowProducer; prefix: string; attempts: number; chunkSize?: number },
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
  const chunkSize = deps.chunkSize ?? 1;
  const plan = planItemJobs(feed.items, chunkSize);
  const opts = itemJobOptions(deps.attempts);
  const children: FlowJob[] = plan.single.map((index) => {
    const itemId = itemIdFor(feed.batchId, index);
    const data: ItemJob = { batchId: feed.batchId, itemId, index, root: feed.root, item: feed.items[index] };
    return { name: JOBS.processItem, queueName: QUEUES.item, data, opts: { ...opts, jobId: jobIds.item(itemId) } };
  });
  for (const c of plan.chunks) {
    const data: ItemChunkJob = {
      batchId: feed.batchId,
      root: feed.root,
      from: c.from,
      to: c.to,
      items: c.indexes.map((index) => ({ index, item: feed.items[index] })),
    };
    children.push({
      name: JOBS.processChunk,
      queueName: QUEUES.item,
      data,
      opts: { ...opts, jobId: jobIds.chunk(feed.batchId, c.from, c.to) },
    });
  }
  const data: BatchJob = plan.chunks.length ? { batchId: feed.batchId, chunkSize } : { batchId: feed.batchId };
  await deps.flow.add({
    name: JOBS.finalizeBatch,
    queueName: QUEUES.batch,
    data,
    opts: { ...batchJobOptions(deps.attempts), jobId: jobIds.batch(feed.batchId) },
    children,
  });
  return { batchId: feed.batchId, created, ledger: outcome, expected: feed.items.length };
}
