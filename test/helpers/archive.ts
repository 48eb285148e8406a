import { redisKeys } from '../../src/adapters/redis/keys';
import { retentionOnRuntime } from '../../src/app/retention/retentionRuntime';
import { DAY_MS } from '../../src/core/retention/plan';
import type { TestPipeline } from './pipeline';

/**
 * Archive a finished batch the way a year of nights would: date its ledger `daysOld` days back
 * (created, and finished a minute later), then run the real retention pass at `retentionDays`.
 * Redis forgets the batch; storage keeps its records.ndjson and summary.json. Returns the ids
 * the pass removed (the caller checks it is exactly its batch).
 */
export async function archiveBatch(
  p: TestPipeline,
  batchId: string,
  opts: { daysOld?: number; retentionDays?: number } = {},
): Promise<string[]> {
  const keys = redisKeys(p.config.prefix);
  const created = Date.now() - (opts.daysOld ?? 45) * DAY_MS;
  await p.rt.redis.hset(
    keys.batch(batchId).ledger,
    'createdAt',
    new Date(created).toISOString(),
    'finishedAt',
    new Date(created + 60_000).toISOString(),
  );
  await p.rt.redis.zadd(keys.batches, String(created), batchId);
  const report = await retentionOnRuntime(p.rt, { retentionDays: opts.retentionDays ?? 30 });
  return report.removed;
}
