import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUES, queuePrefix } from '../../src/queues/definitions';
import type { CatalogRecord } from '../../src/schemas/record';
import { CliProcess, PersistentRedis } from '../helpers/processes';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * Issue 26, attack 5: Redis reaches maxmemory (noeviction) in the middle of `photowire run`. A
 * private redis-server on a free port, started by this test with a small maxmemory (the shared
 * 6379 server's settings are never touched). `run` must stop with one plain line and exit 2,
 * nothing lost; once maxmemory is raised, `retry --wait` ends when the batch is whole: the
 * summary's counts are the lines of records.ndjson and no job is left queued.
 * docs/RELIABILITY.md, "Attacks".
 */
jest.setTimeout(240_000);

const ITEMS = 3000;
const PENDING = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

/** An NDJSON manifest of caption-only items: each stores a record, facets and index entries in Redis. */
function writeManifest(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'wire.ndjson');
  const lines = Array.from({ length: ITEMS }, (_, i) =>
    JSON.stringify({
      id: `oom-${i + 1}`,
      caption: `Item ${i + 1}: a ${['ferry', 'tram', 'lorry', 'barge'][i % 4]} waits at ${['Dover', 'Leeds', 'Hull', 'Bath', 'Ely'][i % 5]} on day ${i + 3} of the strike. (Photo: Jo Bloggs/Northwind Press)`,
    }),
  );
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('Redis out of memory in the middle of a batch', () => {
  const root = makeTmpDir('redis-oom');
  let redis: PersistentRedis;
  let admin: Redis;
  const procs: CliProcess[] = [];

  beforeAll(async () => {
    redis = await PersistentRedis.start(path.join(root, 'redis'));
    admin = new Redis(redis.url, { lazyConnect: false });
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    admin?.disconnect();
    await redis?.stop();
    removeDir(root);
  });

  const start = (args: string[], env: Record<string, string>) => {
    const p = CliProcess.start(args, env);
    procs.push(p);
    return p;
  };

  it('run stops with one plain line (exit 2), nothing lost; after maxmemory is raised retry --wait ends only when the batch is whole', async () => {
    const dataDir = path.join(root, 'data');
    // run's and retry's own log level (warnings and errors): what a user sees.
    const env = {
      REDIS_URL: redis.url,
      PHOTOWIRE_PREFIX: 'pwtest-oom',
      PHOTOWIRE_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    };
    const manifest = writeManifest(path.join(root, 'feed'));
    // 3 MB above what the empty server uses: the queued batch fits (about 1 MB), its records do not (about 10 MB).
    const used = Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))![1]);
    await admin.config('SET', 'maxmemory', String(used + 3 * 1024 * 1024));

    const run = start(['run', manifest], env);
    const exit = await run.exited;
    expect(exit.code).toBe(2);
    // No JSON log lines (before: one per refused write, 289 in two minutes, and `run` never ended).
    expect(run.logs).toEqual([]);
    const said = run.plain.filter((l) => !/^([\w-]+: \d+% \d+\/\d+|using Redis)/.test(l));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^photowire: REDIS_OUT_OF_MEMORY: Redis (at redis:\/\/127\.0\.0\.1:\d+ )?is out of memory \(used [\d.]+ MB of maxmemory [\d.]+ MB, maxmemory-policy noeviction\)/,
    );
    expect(said[0]).toContain(`"OOM command not allowed when used memory > 'maxmemory'"`);
    const batchId = /photowire retry (\S+) --wait/.exec(said[0])![1];
    expect(batchId).toMatch(/^wire-[0-9a-f]+$/);

    // Nothing lost: the ledger is open, the rest of the items are still queued.
    const ledger = await admin.hgetall(`{pwtest-oom:batch:${batchId}}`);
    // open: 'queued' when Redis refused the very first item's write (CI once stopped there), else 'running'
    expect(ledger).toMatchObject({ expected: String(ITEMS) });
    expect(['queued', 'running']).toContain(ledger.state);
    expect(Number(ledger.ok ?? 0) + Number(ledger.failed ?? 0)).toBeLessThan(ITEMS);
    const opts = { connection: admin, prefix: queuePrefix('pwtest-oom') };
    const items = new Queue(QUEUES.item, opts);
    const batches = new Queue(QUEUES.batch, opts);
    try {
      const queued = await items.getJobCounts(...PENDING);
      expect(Object.values(queued).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

      await admin.config('SET', 'maxmemory', String(256 * 1024 * 1024));
      // Until the batch is whole with nothing failed (a chunk whose attempts ran out while Redis
      // refused writes is recorded as failed by the finalize, and retried by the next call).
      type Summary = { ok: number; failed: number; items: number; state: string };
      let summary = null as Summary | null;
      for (let round = 0; round < 3 && (!summary || summary.failed > 0); round++) {
        const retry = start(['retry', batchId, '--wait', '--with-workers', '--json'], env);
        const done = await retry.exited;
        expect(retry.plain.filter((l) => /out of memory/i.test(l))).toEqual([]);
        summary = (JSON.parse(retry.stdout) as { batch: Summary }).batch;
        expect(done.code).toBe(summary!.failed > 0 ? 1 : 0);
        expect(summary).toMatchObject({ state: 'done', items: ITEMS });
        // When it says done, nothing is still queued, and records.ndjson is the summary's counts.
        expect(await items.getJobCounts(...PENDING)).toEqual(Object.fromEntries(PENDING.map((s) => [s, 0])));
        expect(await batches.getJobCounts(...PENDING)).toEqual(Object.fromEntries(PENDING.map((s) => [s, 0])));
        const lines = readFileSync(path.join(dataDir, 'batches', batchId, 'records.ndjson'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as CatalogRecord);
        expect(lines).toHaveLength(ITEMS);
        expect({ ok: lines.filter((r) => !r.error).length, failed: lines.filter((r) => r.error).length }).toEqual({
          ok: summary!.ok,
          failed: summary!.failed,
        });
        const exported = JSON.parse(readFileSync(path.join(dataDir, 'batches', batchId, 'summary.json'), 'utf8')) as {
          ok: number;
          failed: number;
        };
        expect({ ok: exported.ok, failed: exported.failed }).toEqual({ ok: summary!.ok, failed: summary!.failed });
      }
      expect(summary).toMatchObject({ ok: ITEMS, failed: 0 });
    } finally {
      await Promise.all([items.close(), batches.close()]);
    }
  });
});
