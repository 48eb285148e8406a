import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Queue } from 'bullmq';
import { redisKeys } from '../../src/adapters/redis/keys';
import { BatchArchive } from '../../src/adapters/storage/batchArchive';
import { Runtime } from '../../src/app/runtime';
import type { RetentionRun } from '../../src/app/retention/retentionService';
import { DAY_MS } from '../../src/core/retention/plan';
import { QUEUES, RETENTION_SCHEDULER, queuePrefix } from '../../src/queues/definitions';
import { TestPipeline } from '../helpers/pipeline';
import { waitUntil } from '../helpers/processes';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

function writeManifest(dir: string, name: string, n: number, tag: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const items = Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i + 1}`,
    caption: `${tag} ${i + 1}: the ${['ferry', 'tram', 'barge'][i % 3]} leaves ${['Hull', 'Dover', 'Leith'][i % 3]} at dawn. (Photo: Jo Bloggs/Northwind Press)`,
  }));
  writeFileSync(file, items.map((x) => JSON.stringify(x)).join('\n') + '\n');
  return file;
}

/**
 * The scheduled retention job: a real BullMQ job scheduler on real Redis, every 1.5 s,
 * run by the retention workers of two worker processes' runtimes; an old batch leaves Redis, its
 * export stays in storage, and the two workers never remove it twice or fail a job.
 */
describe('retention as a scheduled job (a BullMQ job scheduler, PHOTOWIRE_RETENTION_EVERY)', () => {
  const dir = makeTmpDir('retention-schedule');
  let p: TestPipeline;
  let second: Runtime | null = null;
  let queue: Queue;

  beforeAll(async () => {
    p = await TestPipeline.start({ overrides: { PHOTOWIRE_RETENTION_EVERY: '1500ms' } });
    second = await Runtime.open({ allowPrivateRedis: false, config: p.config });
    await second.startWorkers(1);
    queue = new Queue(QUEUES.retention, { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) });
  }, 120_000);
  afterAll(async () => {
    await queue?.close();
    await second?.close();
    await p?.close();
    removeDir(dir);
  });

  it('the scheduler is there with the interval; it removes an old batch from Redis once, its export staying in storage', async () => {
    const scheduler = await queue.getJobScheduler(RETENTION_SCHEDULER);
    expect(scheduler).toMatchObject({ key: RETENTION_SCHEDULER, every: 1500 });

    const [old] = await p.ingest([writeManifest(dir, 'old.ndjson', 12, 'old')]);
    const [recent] = await p.ingest([writeManifest(dir, 'recent.ndjson', 8, 'recent')]);
    const oldId = old.batchId!;
    const recentId = recent.batchId!;
    // The old batch finished 45 days ago (ledger times and the batch list's score).
    const keys = redisKeys(p.config.prefix);
    const created = Date.now() - 45 * DAY_MS;
    await p.rt.redis.hset(
      keys.batch(oldId).ledger,
      'createdAt',
      new Date(created).toISOString(),
      'finishedAt',
      new Date(created + 60_000).toISOString(),
    );
    await p.rt.redis.zadd(keys.batches, String(created), oldId);

    // No one calls the pass: the scheduler's job does, within a few intervals.
    await waitUntil(
      async () =>
        (await p.rt.ctx.catalog.getBatch(oldId)) === null && (await p.rt.redis.zscore(keys.batches, oldId)) === null,
      60_000,
      'the scheduled pass removed the old batch',
      200,
    );
    // Two more ticks: nothing more to remove, nothing fails.
    const ticksSeen = (await queue.getJobCounts('completed')).completed;
    await waitUntil(
      async () => (await queue.getJobCounts('completed')).completed >= ticksSeen + 2,
      30_000,
      'two more scheduled passes',
      200,
    );

    const completed = await queue.getJobs(['completed'], 0, -1);
    const runs = completed.map((j) => j.returnvalue as RetentionRun);
    const ran = runs.filter((r): r is Extract<RetentionRun, { ran: true }> => r.ran);
    const removedTimes = ran
      .flatMap((r) => [...r.report.removed, ...r.report.resumed])
      .filter((id) => id === oldId).length;
    expect(removedTimes).toBe(1);
    expect(ran.every((r) => r.trigger === 'schedule')).toBe(true);
    const removing = ran.find((r) => r.report.removed.includes(oldId))!;
    expect(removing.report.keysRemoved).toBeGreaterThan(5);
    expect(typeof removing.bytesFreed).toBe('number');
    expect((await queue.getJobCounts('failed')).failed).toBe(0);
    // Both processes' workers took scheduled jobs (or at least the scheduler kept one job per tick).
    expect(new Set(completed.map((j) => j.id)).size).toBe(completed.length);

    // The export stays in storage; the recent batch is untouched.
    expect(await new BatchArchive(p.rt.ctx.exports).missing(oldId)).toEqual([]);
    expect(await p.rt.ctx.catalog.getBatch(recentId)).toMatchObject({ state: 'done', ok: 8 });
  }, 120_000);

  it('PHOTOWIRE_RETENTION_EVERY=0 removes the scheduler when a worker starts; a restart keeps the next run where it was', async () => {
    const before = await queue.getJobScheduler(RETENTION_SCHEDULER);
    const again = await Runtime.open({ allowPrivateRedis: false, config: p.config });
    try {
      await again.startWorkers(1);
      // Same id, same interval: the next run did not move to one interval after this start.
      const after = await queue.getJobScheduler(RETENTION_SCHEDULER);
      expect(after?.next).toBeLessThanOrEqual((before?.next ?? 0) + 1500);
    } finally {
      await again.close();
    }
    const off = await Runtime.open({ allowPrivateRedis: false, config: { ...p.config, retentionEveryMs: 0 } });
    try {
      expect(off.config.retentionEveryMs).toBe(0);
      await off.startWorkers(1);
      expect(await queue.getJobScheduler(RETENTION_SCHEDULER)).toBeUndefined();
    } finally {
      await off.close();
    }
  }, 60_000);
});
