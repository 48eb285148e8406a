import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadFeed } from '../../src/adapters/feeds/loadFeed';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { QUEUES, queuePrefix } from '../../src/queues/definitions';
import { retryItems } from '../../src/app/batches/retryItems';
import type { CatalogRecord } from '../../src/schemas/record';
import { finalizeBatch } from '../../src/app/jobs/batchWorker';
import type { BatchSummary } from '../../src/app/batches/summarizeBatch';
import { tinyJpeg } from '../helpers/corpus';
import { expectBatchWhole } from '../helpers/integrity';
import { TestPipeline } from '../helpers/pipeline';
import { CliProcess, PersistentRedis, startReadyWorker, waitUntil } from '../helpers/processes';
import { REPO_ROOT, makeTmpDir, removeDir } from '../helpers/testEnv';
import { redisKeys } from '../../src/adapters/redis/keys';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 18, attack 5 (batches closed with holes, waits that never end) and issue 11 ("Records
 * lost"), against real Redis, real workers and real feed files. docs/RELIABILITY.md, "Attacks".
 */
jest.setTimeout(scaledMs(120_000));

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/feeds');

const lines = (dataDir: string, batchId: string): CatalogRecord[] =>
  readFileSync(path.join(dataDir, 'batches', batchId, 'records.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CatalogRecord);
const summaryOf = (dataDir: string, batchId: string): BatchSummary =>
  JSON.parse(readFileSync(path.join(dataDir, 'batches', batchId, 'summary.json'), 'utf8')) as BatchSummary;

/** An NDJSON manifest of caption-only items (no photo: quick, and no shared state between items). */
function writeManifest(dir: string, name: string, n: number, tag: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const items = Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i + 1}`,
    caption: `${tag} ${i + 1}: a ${['ferry', 'tram', 'lorry', 'barge', 'glider', 'coach', 'yacht', 'train'][i % 8]} waits at ${['Dover', 'Leeds', 'Hull', 'Bath', 'Ely', 'Rye', 'Wells', 'Looe'][i % 8]} on day ${i + 3} of the strike. (Photo: Jo Bloggs/Northwind Press)`,
  }));
  writeFileSync(file, items.map((x) => JSON.stringify(x)).join('\n') + '\n');
  return file;
}

describe('records are keyed by their batch index, not their place in the feed', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('g2-text-first');
  afterAll(async () => {
    await p?.close();
    removeDir(dir);
  });

  it('a NewsML-G2 picture after a text newsItem gives one line in records.ndjson and one photo in the summary', async () => {
    p = await TestPipeline.start();
    const feed = path.join(dir, 'newsml-g2-text-then-picture.xml');
    copyFileSync(path.join(FIXTURES, 'newsml-g2-text-then-picture.xml'), feed);
    writeFileSync(path.join(dir, 'photo.jpg'), await tinyJpeg(320, 213));
    const [o] = await p.ingest([feed]);
    expect(o.expected).toBe(1);
    const records = lines(p.config.dataDir, o.batchId!);
    // Before: the record sat under field "1" (its feed position) and finalize read 0..0: no line at all.
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      index: 0,
      source: { position: 1, format: 'newsml-g2' },
      agencyId: 'tag:nwp.example,2012:NWP0042',
      error: null,
    });
    expect(records[0].image?.width).toBe(320);
    const s = summaryOf(p.config.dataDir, o.batchId!);
    expect(s).toMatchObject({ items: 1, ok: 1, failed: 0, photos: 1, complete: true });
    await expectBatchWhole(p.rt, o.batchId!, { items: 1, ok: 1 });
  });
});

describe('createBatch is one step that repairs a partial ledger (attack 5)', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('partial-ledger');
  afterAll(async () => {
    await p?.close();
    removeDir(dir);
  });

  it('a ledger holding only its id (a crash between two writes) is completed from the feed on re-ingest', async () => {
    p = await TestPipeline.start();
    const feed = writeManifest(dir, 'partial.ndjson', 3, 'Partial');
    const { batchId } = await loadFeed(feed, p.config.maxFeedBytes);
    // What a crash between HSETNX and the MULTI of the old createBatch left behind.
    await p.rt.redis.hset(redisKeys(p.config.prefix).batch(batchId).ledger, 'id', batchId);
    const [o] = await p.ingest([feed]);
    expect(o).toMatchObject({ batchId, created: true, expected: 3 });
    const ledger = await p.rt.ctx.catalog.getBatch(batchId);
    // Before: "0 items", an empty records.ndjson, while `export` had all three records.
    expect(ledger).toMatchObject({ state: 'done', expected: 3, ok: 3, failed: 0, feed, format: 'manifest-ndjson' });
    expect(lines(p.config.dataDir, batchId).map((r) => r.caption.slice(0, 9))).toEqual([
      'Partial 1',
      'Partial 2',
      'Partial 3',
    ]);
    expect(await p.rt.redis.zscore(redisKeys(p.config.prefix).batches, batchId)).not.toBeNull();
    await expectBatchWhole(p.rt, batchId, { items: 3, ok: 3 });
  });

  it('a ledger recreated after Redis lost it counts the items recorded meanwhile, so it is never done short', async () => {
    const feed = writeManifest(dir, 'recount.ndjson', 4, 'Recount');
    const [first] = await p.ingest([feed]);
    const batchId = first.batchId!;
    // Redis lost the ledger (and the jobs); the items' states and records written meanwhile are there.
    await p.rt.redis.del(redisKeys(p.config.prefix).batch(batchId).ledger);
    for (const name of [QUEUES.item, QUEUES.batch]) {
      const q = new Queue(name, { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) });
      await q.obliterate({ force: true });
      await q.close();
    }
    const [again] = await p.ingest([feed]);
    expect(again.created).toBe(true);
    // Before: the counters started at 0 and the re-run items (already "ok") never moved them: done with 4 expected, 0 ok.
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', expected: 4, ok: 4, failed: 0 });
    expect(lines(p.config.dataDir, batchId)).toHaveLength(4);
  });
});

describe('the finalizer checks records.ndjson against the ledger', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('finalize-check');
  afterAll(async () => {
    await p?.close();
    removeDir(dir);
  });

  it('a record missing at finalize (its job completed) is not a silent short records.ndjson: the item is failed and says why', async () => {
    p = await TestPipeline.start();
    const feed = writeManifest(dir, 'check.ndjson', 3, 'Check');
    const [o] = await p.ingest([feed]);
    const batchId = o.batchId!;
    // Redis lost one record after it was written (its item state and completed job remain).
    await p.rt.redis.hdel(redisKeys(p.config.prefix).batch(batchId).records, '1');
    await finalizeBatch(p.rt.ctx, batchId);
    // Before: records.ndjson had 2 lines and the ledger still said done, 3 ok.
    const records = lines(p.config.dataDir, batchId);
    expect(records.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(records[1].error).toMatchObject({
      code: 'WORKER_LOST',
      message: expect.stringMatching(/its job completed but its record is missing/),
    });
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', expected: 3, ok: 2, failed: 1 });
  });
});

describe('an item whose job is gone at finalize becomes WORKER_LOST, and retry recovers it (attack 5)', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('drained');
  afterAll(async () => {
    await p?.close();
    removeDir(dir);
  });

  it('emptying the item queue mid-batch: the batch closes with every item counted, the lost ones failed', async () => {
    // One item at a time, each held 600 ms: the queue still holds items when it is emptied. One job
    // per item (PHOTOWIRE_CHUNK_SIZE 1), as photos are; chunks of caption-only items emptied from
    // the queue: test/integration/chunks.test.ts.
    p = await TestPipeline.start({
      concurrency: 1,
      overrides: { PHOTOWIRE_TEST_PAUSE_AT: 'dedup:600', PHOTOWIRE_CHUNK_SIZE: '1' },
    });
    const feed = writeManifest(dir, 'drained.ndjson', 5, 'Drained');
    const [o] = await ingestPaths(p.rt, [feed]);
    const batchId = o.batchId!;
    await waitUntil(
      async () => ((await p.rt.ctx.catalog.getBatch(batchId))?.ok ?? 0) >= 1,
      30_000,
      'a first item done',
    );
    const queue = new Queue(QUEUES.item, { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) });
    await queue.drain(true); // what the queue board's "empty" does
    await queue.close();
    await waitForBatches(p.rt, [batchId], { progress: false, timeoutMs: 30_000 });

    const ledger = (await p.rt.ctx.catalog.getBatch(batchId))!;
    // Before: done with expected 5, ok 1 or 2, failed 0: a hole, and only a log line said so.
    expect(ledger.state).toBe('done');
    expect(ledger.ok + ledger.failed).toBe(5);
    expect(ledger.failed).toBeGreaterThanOrEqual(2);
    const failures = await p.rt.ctx.catalog.getFailed(batchId);
    expect(failures).toHaveLength(ledger.failed);
    for (const f of failures) {
      expect(f.code).toBe('WORKER_LOST');
      expect(f.message).toMatch(/its job no longer exists/);
    }
    const records = lines(p.config.dataDir, batchId);
    expect(records.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    // The lost items keep what the feed says of them (read again from the unchanged feed).
    for (const r of records.filter((x) => x.error)) expect(r.captionRaw).toMatch(/^Drained \d: a /);
    expect(summaryOf(p.config.dataDir, batchId)).toMatchObject({
      items: 5,
      failed: ledger.failed,
      pending: 0,
      complete: true,
    });

    const out = (await retryItems(p.rt, batchId))!;
    expect(out.retried.sort()).toEqual(failures.map((f) => f.itemId).sort());
    await waitForBatches(p.rt, [batchId], { progress: false, timeoutMs: 30_000 });
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', expected: 5, ok: 5, failed: 0 });
    expect(lines(p.config.dataDir, batchId).map((r) => r.error)).toEqual([null, null, null, null, null]);
    await expectBatchWhole(p.rt, batchId, { items: 5, ok: 5 });
  });
});

describe('waits notice a ledger that vanished with Redis restarted without its data (attack 5)', () => {
  const root = makeTmpDir('ledger-vanished');
  const dataDir = path.join(root, 'data');
  const redisDir = path.join(root, 'redis');
  let redis: PersistentRedis;
  let probe: Redis;
  const procs: CliProcess[] = [];
  // One job per item (PHOTOWIRE_CHUNK_SIZE 1): in one chunk of six, all six items are recorded at
  // once, and the wipe can come after the batch is done, when there is nothing left to notice.
  const env = () => ({
    REDIS_URL: redis.url,
    PHOTOWIRE_PREFIX: 'pwtest-vanish',
    PHOTOWIRE_DATA_DIR: dataDir,
    PHOTOWIRE_LEDGER_LOST_MS: '3000',
    PHOTOWIRE_CHUNK_SIZE: '1',
    LOG_LEVEL: 'warn',
  });

  beforeAll(async () => {
    redis = await PersistentRedis.start(redisDir);
    probe = new Redis(redis.url, { maxRetriesPerRequest: null });
    // Each item held 1.2 s, two at a time: Redis is wiped while items are in flight.
    procs.push(await startReadyWorker({ ...env(), PHOTOWIRE_TEST_PAUSE_AT: 'dedup:1200' }, 2));
  });
  afterAll(async () => {
    await Promise.all(procs.map((x) => x.stop()));
    probe?.disconnect();
    await redis?.stop();
    removeDir(root);
  });

  /** Kill Redis and start it again on the same port with nothing: no AOF, no RDB. */
  async function wipeRestart(): Promise<void> {
    await redis.kill();
    rmSync(redisDir, { recursive: true, force: true });
    mkdirSync(redisDir);
    await redis.startServer();
  }
  const okOf = async (batchId: string) =>
    Number((await probe.hget(redisKeys('pwtest-vanish').batch(batchId).ledger, 'ok')) ?? 0);
  const stderrOf = (c: CliProcess) => [...c.logs.map((l) => String(l.msg ?? '')), ...c.plain].join('\n');

  it('ingest --wait says the ledger is gone and exits 2 with the reason after PHOTOWIRE_LEDGER_LOST_MS', async () => {
    const feed = writeManifest(path.join(root, 'feeds'), 'gone.ndjson', 6, 'Gone');
    const { batchId } = await loadFeed(feed, 64 << 20);
    const ingest = CliProcess.start(['ingest', feed, '--wait'], env());
    procs.push(ingest);
    await waitUntil(async () => (await okOf(batchId)) >= 2, 30_000, 'two items done');
    await wipeRestart();
    const wiped = Date.now();
    // Before: it waited for ever ("not done yet"), saying nothing.
    const exit = await ingest.exitWithin(30_000);
    expect(exit).not.toBeNull();
    expect(exit!.code).toBe(2);
    expect(exit!.at - wiped).toBeGreaterThanOrEqual(3000);
    const err = stderrOf(ingest);
    expect(err).toContain(`batch ${batchId} has no ledger in Redis any more (Redis restarted without its data`);
    expect(err).toMatch(/photowire: batch \S+: its ledger has been missing from Redis for 3 s .*gave up waiting/);
  });

  it('ingest --wait --recreate re-creates the batch from the feed and ends with every item ok', async () => {
    const feed = writeManifest(path.join(root, 'feeds'), 'recreate.ndjson', 6, 'Recreate');
    const { batchId } = await loadFeed(feed, 64 << 20);
    const ingest = CliProcess.start(['ingest', feed, '--wait', '--recreate'], env());
    procs.push(ingest);
    await waitUntil(async () => (await okOf(batchId)) >= 2, 30_000, 'two items done');
    await wipeRestart();
    const exit = await ingest.exitWithin(60_000);
    expect(exit).not.toBeNull();
    expect(stderrOf(ingest)).toContain(`batch ${batchId}: re-created from ${feed} (6 items`);
    expect(exit!.code).toBe(0);
    expect(ingest.stdout).toContain('6 items: 6 ok, 0 failed');
    expect(await probe.hgetall(redisKeys('pwtest-vanish').batch(batchId).ledger)).toMatchObject({
      state: 'done',
      expected: '6',
      ok: '6',
      failed: '0',
    });
    expect(existsSync(path.join(dataDir, 'batches', batchId, 'records.ndjson'))).toBe(true);
    expect(lines(dataDir, batchId).map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    // The worker lived through it.
    expect(procs[0].alive).toBe(true);
  });
});
