import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Job, Queue } from 'bullmq';
import { redisKeys } from '../../src/adapters/redis/keys';
import { scanKeys } from '../../src/adapters/redis/scan';
import { RetentionStore } from '../../src/adapters/redis/retentionStore';
import { BatchArchive } from '../../src/adapters/storage/batchArchive';
import { retentionOnRuntime } from '../../src/app/retention/retentionRuntime';
import { DAY_MS, formatReport } from '../../src/core/retention/plan';
import { JOBS, QUEUES, jobIds, queuePrefix } from '../../src/queues/definitions';
import { TestPipeline } from '../helpers/pipeline';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/** An NDJSON manifest of caption-only items (quick, no photo). */
function writeManifest(dir: string, name: string, n: number, tag: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const items = Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i + 1}`,
    caption: `${tag} ${i + 1}: a ${['ferry', 'tram', 'lorry', 'barge'][i % 4]} waits at ${['Dover', 'Leeds', 'Hull', 'Bath'][i % 4]} on day ${i + 3} of the strike. (Photo: Jo Bloggs/Northwind Press)`,
  }));
  writeFileSync(file, items.map((x) => JSON.stringify(x)).join('\n') + '\n');
  return file;
}

/** Every key of a batch's slot (SCAN of its tag). */
async function keysOf(p: TestPipeline, batchId: string): Promise<string[]> {
  const tag = redisKeys(p.config.prefix).batch(batchId).tag;
  // scanKeys: SCAN on each master of a Cluster (the test matrix, test/helpers/testEnv.ts).
  return scanKeys(p.rt.redis, `${tag}*`);
}

async function prefixKeyCount(p: TestPipeline): Promise<number> {
  let n = 0;
  for (const pattern of [`{${p.config.prefix}:*`, `{${p.config.prefix}}:*`, `${p.config.prefix}:*`]) {
    n += (await scanKeys(p.rt.redis, pattern)).length;
  }
  return n;
}

async function usedMemory(p: TestPipeline): Promise<number> {
  const info = await p.rt.redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

describe('retention: old batches leave Redis, their export stays in storage and serves them archived', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('retention');
  const now = new Date();
  const ids: Record<'old1' | 'old2' | 'recent' | 'noExport', string> = { old1: '', old2: '', recent: '', noExport: '' };

  beforeAll(async () => {
    p = await TestPipeline.start({ overrides: { LOG_LEVEL: process.env.RETENTION_LOG ?? 'silent' } });
    for (const [name, n] of [
      ['old1', 40],
      ['old2', 30],
      ['recent', 20],
      ['noExport', 10],
    ] as const) {
      const [out] = await p.ingest([writeManifest(dir, `${name}.ndjson`, n, name)]);
      ids[name] = out.batchId!;
    }
    // The clock: each batch was created, and finished a minute later, when the test says (the
    // ledger's createdAt/finishedAt and the batch list's score, which is the creation time).
    const finished = { old1: 45, old2: 31, recent: 5, noExport: 60 };
    const keys = redisKeys(p.config.prefix);
    for (const [name, days] of Object.entries(finished)) {
      const id = ids[name as keyof typeof ids];
      const created = now.getTime() - days * DAY_MS - 60_000;
      await p.rt.redis.hset(
        keys.batch(id).ledger,
        'createdAt',
        new Date(created).toISOString(),
        'finishedAt',
        new Date(created + 60_000).toISOString(),
      );
      await p.rt.redis.zadd(keys.batches, String(created), id);
    }
    await p.rt.ctx.exports.remove(ids.noExport, 'records.ndjson');
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    removeDir(dir);
  });

  it('removes old batches (every key of their slot, their jobs), keeps a recent one and one without export, resumes a killed pass', async () => {
    const before = {
      keys: await prefixKeyCount(p),
      memory: await usedMemory(p),
      recentKeys: (await keysOf(p, ids.recent)).sort(),
    };
    expect((await keysOf(p, ids.old1)).length).toBeGreaterThan(5);
    const batchQueue = new Queue(QUEUES.batch, { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) });
    const itemQueue = new Queue(QUEUES.item, { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) });
    try {
      expect(await Job.fromId(batchQueue, jobIds.batch(ids.old1))).toBeDefined();
      expect((await Job.fromId(batchQueue, jobIds.batch(ids.old1)))!.name).toBe(JOBS.finalizeBatch);
      // Caption-only items go in chunks (PHOTOWIRE_CHUNK_SIZE, default 100): old1's 40 are one job.
      expect(await Job.fromId(itemQueue, jobIds.chunk(ids.old1, 0, 40))).toBeDefined();

      // A dry run removes nothing and says what it would.
      const dry = await retentionOnRuntime(p.rt, { now, retentionDays: 30, dryRun: true });
      expect(dry.removed.sort()).toEqual([ids.old1, ids.old2].sort());
      expect(await prefixKeyCount(p)).toBe(before.keys);

      // The pass is killed after old1's ledger and jobs went (the process dies there).
      const killed = retentionOnRuntime(p.rt, {
        now,
        retentionDays: 30,
        afterStep: (batchId, step) => {
          if (step === 'jobs') throw new Error(`killed after ${batchId} ${step}`);
        },
      });
      await expect(killed).rejects.toThrow(/killed after/);
      const cursor = await new RetentionStore(p.rt.redis, p.config.prefix).getCursor();
      expect(cursor?.step).toBe('jobs');
      const half = cursor!.batchId;
      expect((await keysOf(p, half)).length).toBeGreaterThan(0); // records still there

      // The next pass finishes it, then removes the other.
      const report = await retentionOnRuntime(p.rt, { now, retentionDays: 30 });
      process.stdout.write(formatReport(report) + '\n');
      expect(report.resumed).toContain(half);
      expect([...report.removed, half].sort()).toEqual([ids.old1, ids.old2].sort());
      expect(report.keptNoExport).toEqual([{ id: ids.noExport, missing: ['records.ndjson'] }]);
      expect(await new RetentionStore(p.rt.redis, p.config.prefix).getCursor()).toBeNull();

      for (const id of [ids.old1, ids.old2]) {
        expect(await keysOf(p, id)).toEqual([]);
        expect(await Job.fromId(batchQueue, jobIds.batch(id))).toBeUndefined();
        expect(await p.rt.redis.zscore(redisKeys(p.config.prefix).batches, id)).toBeNull();
        expect(await p.rt.ctx.catalog.getBatch(id)).toBeNull();
      }
      expect(await Job.fromId(itemQueue, jobIds.item(`${ids.old1}-0001`))).toBeUndefined();
      expect(await Job.fromId(itemQueue, jobIds.chunk(ids.old1, 0, 40))).toBeUndefined();
      expect(await Job.fromId(itemQueue, jobIds.chunk(ids.old2, 0, 30))).toBeUndefined();
      expect(await Job.fromId(itemQueue, jobIds.chunk(ids.recent, 0, 20))).toBeDefined();
      // Untouched: the recent batch, and the one whose export is missing.
      expect((await keysOf(p, ids.recent)).sort()).toEqual(before.recentKeys);
      expect(await p.rt.ctx.catalog.getBatch(ids.noExport)).toMatchObject({ state: 'done', ok: 10 });
      expect(await Job.fromId(batchQueue, jobIds.batch(ids.recent))).toBeDefined();

      const after = { keys: await prefixKeyCount(p), memory: await usedMemory(p) };
      process.stdout.write(
        `retention: keys of the prefix ${before.keys} -> ${after.keys}; INFO used_memory ${before.memory} -> ${after.memory}\n`,
      );
      expect(after.keys).toBeLessThan(before.keys);

      // A second pass finds nothing more to do (idempotent).
      const again = await retentionOnRuntime(p.rt, { now, retentionDays: 30 });
      expect(again.removed).toEqual([]);
      expect(again.keysRemoved).toBe(0);
    } finally {
      await batchQueue.close();
      await itemQueue.close();
    }

    // The export stays and serves the batch archived, a page at a time.
    const archive = new BatchArchive(p.rt.ctx.exports);
    for (const id of [ids.old1, ids.old2]) expect(await archive.missing(id)).toEqual([]);
    const page = await archive.recordsPage(ids.old1, { offset: 10, limit: 5 });
    expect(page!.records.map((r) => r.index)).toEqual([10, 11, 12, 13, 14]);
    expect(page!.total).toBe(40);
    const listed = await new RetentionStore(p.rt.redis, p.config.prefix).listArchived();
    expect(listed.map((e) => e.id).sort()).toEqual([ids.old1, ids.old2].sort());
    expect(listed.find((e) => e.id === ids.old1)).toMatchObject({ expected: 40, ok: 40, failed: 0 });
  }, 120_000);
});
