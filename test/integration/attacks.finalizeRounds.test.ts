import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Queue, type Job, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis } from '../../src/adapters/redis/connection';
import { createBatchWorker, handleBatchJob } from '../../src/app/jobs/batchWorker';
import { createItemWorker } from '../../src/app/jobs/itemWorker';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { JOBS, QUEUES, itemJobOptions, jobIds, queuePrefix } from '../../src/queues/definitions';
import { retryItems } from '../../src/app/batches/retryItems';
import type { CatalogRecord } from '../../src/schemas/record';
import { tinyJpeg } from '../helpers/corpus';
import { TestPipeline } from '../helpers/pipeline';
import { waitUntil } from '../helpers/processes';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * Issue 26, attack 5: a finalize job of an earlier round closing a batch that `retry` had reopened,
 * so `retry --wait` said "done" while the retried items were still queued; and a finalize taken
 * while its item jobs were still to run. Real Redis, real BullMQ workers (in this process, each
 * queue's worker started and stopped on its own so the order of events is the test's), real files.
 * docs/RELIABILITY.md, "Attacks".
 */
jest.setTimeout(120_000);

/** A CSV manifest: one caption-only item and two photos that are not there yet (IMAGE_NOT_FOUND, which `retry` can mend). */
function writeFeed(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'manifest.csv');
  writeFileSync(
    file,
    [
      'Caption,Image',
      '"Commuters wait at Leeds station during the rail strike on Thursday. (Photo: Jo Bloggs/Northwind Press)",',
      '"A ferry waits at Dover on the second day of the strike. (Photo: Jo Bloggs/Northwind Press)",ferry.jpg',
      '"A tram waits at Sheffield on the third day of the strike. (Photo: Jo Bloggs/Northwind Press)",tram.jpg',
    ].join('\n') + '\n',
  );
  return file;
}

/** The next time `worker` ends the job `jobId` (completed, or failed this attempt). */
function nextEnd(worker: Worker, jobId: string): Promise<'completed' | 'failed'> {
  return new Promise((resolve) => {
    const done = (job: Job | undefined, how: 'completed' | 'failed') => {
      if (job?.id !== jobId) return;
      worker.off('completed', onCompleted);
      worker.off('failed', onFailed);
      resolve(how);
    };
    const onCompleted = (job: Job) => done(job, 'completed');
    const onFailed = (job: Job | undefined) => done(job, 'failed');
    worker.on('completed', onCompleted);
    worker.on('failed', onFailed);
  });
}

const PENDING = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

describe('a finalize closes only its own round, and only once its item jobs have ended', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('finalize-rounds');
  const conns: Redis[] = [];
  const workers: Worker[] = [];
  const queues: Queue[] = [];

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close(true)));
    await Promise.all(queues.splice(0).map((q) => q.close()));
    for (const c of conns.splice(0)) c.disconnect();
    await p?.close();
    removeDir(dir);
  });

  async function setup(name: string) {
    // Many attempts, so the first round's finalize is still being retried (STORAGE_FAILED) when `retry` reopens the batch.
    p = await TestPipeline.start({ workers: false, overrides: { PHOTOWIRE_ATTEMPTS: '8' } });
    const conn = () => {
      const c = createRedis(p.rt.redisHandle.url, { forWorker: true });
      conns.push(c);
      return c;
    };
    const opts = { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) };
    const itemQueue = new Queue(QUEUES.item, opts);
    const batchQueue = new Queue(QUEUES.batch, opts);
    queues.push(itemQueue, batchQueue);
    const startItems = async () => {
      const w = createItemWorker(p.rt.ctx, conn(), 2);
      workers.push(w);
      await w.waitUntilReady();
      return w;
    };
    const startBatch = async () => {
      const w = createBatchWorker(p.rt.ctx, conn());
      workers.push(w);
      await w.waitUntilReady();
      return w;
    };
    const feed = writeFeed(path.join(dir, name));
    return { itemQueue, batchQueue, startItems, startBatch, feed };
  }

  const recordsOf = (batchId: string): CatalogRecord[] =>
    readFileSync(path.join(p.config.dataDir, 'batches', batchId, 'records.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CatalogRecord);
  const summaryOf = (batchId: string) =>
    JSON.parse(readFileSync(path.join(p.config.dataDir, 'batches', batchId, 'summary.json'), 'utf8')) as {
      ok: number;
      failed: number;
      items: number;
    };

  it("the first round's finalize, run again by BullMQ after `retry` reopened the batch, does not close it: the wait ends only when the retried items have", async () => {
    const { itemQueue, batchQueue, startItems, startBatch, feed } = await setup('late');
    // The data directory cannot be written (tmp/ is a file; tests run as root, where chmod stops
    // nothing): the first round's finalize closes the ledger with STORAGE_FAILED and throws, so
    // BullMQ runs it again with its backoff. This is the window the late finalize came through.
    mkdirSync(p.config.dataDir, { recursive: true });
    writeFileSync(path.join(p.config.dataDir, 'tmp'), 'a file where a folder is wanted');
    let items = await startItems();
    await startBatch();
    const [o] = await ingestPaths(p.rt, [feed]);
    const batchId = o.batchId!;
    await waitForBatches(p.rt, [batchId], { progress: false, timeoutMs: 60_000 });
    const first = (await p.rt.ctx.catalog.getBatch(batchId))!;
    expect(first).toMatchObject({ state: 'done', ok: 1, failed: 2, round: 1 });
    expect(first.exportError).toMatch(/STORAGE_FAILED/);
    // Still BullMQ's to run again (its backoff), not over.
    expect(['delayed', 'waiting', 'active']).toContain(
      await (await batchQueue.getJob(jobIds.batch(batchId)))!.getState(),
    );

    // No item worker now: the retried items stay queued for as long as the test says.
    await items.close();
    workers.splice(workers.indexOf(items), 1);
    writeFileSync(path.join(dir, 'late', 'ferry.jpg'), await tinyJpeg(320, 213));
    writeFileSync(path.join(dir, 'late', 'tram.jpg'), await tinyJpeg(320, 213));
    const retried = await retryItems(p.rt, batchId);
    expect(retried?.retried).toHaveLength(2);
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'running', round: 2 });

    let settledAt: { counts: Record<string, number>; state?: string } | null = null;
    const waited = waitForBatches(p.rt, [batchId], { progress: false, timeoutMs: 90_000 }).then(async () => {
      settledAt = {
        counts: await itemQueue.getJobCounts(...PENDING),
        state: (await p.rt.ctx.catalog.getBatch(batchId))?.state,
      };
    });

    // The first round's finalize runs again now: promoted out of its backoff (as the queue board's
    // "promote" does; BullMQ's own timer does the same a moment later). Ended once after the
    // reopen: completed (it did nothing), or failed again (it ran, STORAGE_FAILED) after an
    // attempt that began after the reopen.
    const id = jobIds.batch(batchId);
    const seen = (await batchQueue.getJob(id))!;
    const startedBefore = seen.attemptsStarted;
    const activeAtReopen = (await seen.getState()) === 'active';
    await waitUntil(
      async () => {
        const job = (await batchQueue.getJob(id))!;
        const state = await job.getState();
        if (state === 'completed') return state;
        if (state === 'delayed' && (job.attemptsStarted > startedBefore || activeAtReopen)) return state;
        if (state === 'delayed') await job.promote().catch(() => undefined);
        return null;
      },
      60_000,
      "the first round's finalize to run after the reopen",
    );
    // Before the fix it closed the ledger again (ok 1 + failed 2 = 3 counted), with the two retried items still queued.
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'running', round: 2 });
    expect(await itemQueue.getJobCounts('waiting')).toEqual({ waiting: 2 });

    // The disk is mended and the items run: the retry's finalize closes the batch, and only then does the wait end.
    rmSync(path.join(p.config.dataDir, 'tmp'));
    items = await startItems();
    await waited;
    expect(settledAt).toEqual({ counts: Object.fromEntries(PENDING.map((s) => [s, 0])), state: 'done' });
    const ledger = (await p.rt.ctx.catalog.getBatch(batchId))!;
    expect(ledger).toMatchObject({ state: 'done', ok: 3, failed: 0, round: 2, exportError: null });
    const lines = recordsOf(batchId);
    expect(lines).toHaveLength(3);
    expect(lines.map((r) => r.error)).toEqual([null, null, null]);
    expect(summaryOf(batchId)).toMatchObject({ items: 3, ok: lines.filter((r) => !r.error).length, failed: 0 });
  });

  it('a finalize taken while one of its item jobs is still to run writes nothing and waits for it', async () => {
    const { itemQueue, batchQueue, startItems, startBatch, feed } = await setup('early');
    writeFileSync(path.join(dir, 'early', 'ferry.jpg'), await tinyJpeg(320, 213));
    writeFileSync(path.join(dir, 'early', 'tram.jpg'), await tinyJpeg(320, 213));
    // Queued with no worker at all: the finalize job waits for its three children.
    const [o] = await ingestPaths(p.rt, [feed]);
    const batchId = o.batchId!;
    const finalize = (await batchQueue.getJob(jobIds.batch(batchId)))!;
    expect(await finalize.getState()).toBe('waiting-children');

    // The finalize run anyway, its children still waiting (as it was when Redis had refused writes mid-batch).
    const out = await handleBatchJob(p.rt.ctx, finalize);
    expect(out).toEqual({ records: 0, waiting: 3 });
    // Nothing written: before the fix the three items were recorded as lost (WORKER_LOST) and the batch closed.
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'queued', ok: 0, failed: 0 });
    expect(await p.rt.ctx.catalog.recordPositions(batchId)).toEqual(new Set());
    expect(existsSync(path.join(p.config.dataDir, 'batches', batchId, 'records.ndjson'))).toBe(false);

    // Its children end (no batch worker yet): BullMQ releases it to the batch queue.
    let items = await startItems();
    await waitUntil(async () => (await finalize.getState()) === 'waiting', 60_000, 'the finalize to be released');
    await items.close();
    workers.splice(workers.indexOf(items), 1);
    // A child attached to it after it was released (an item run again by hand from the queue board,
    // or, as in the attack, a child left in its dependencies when Redis refused writes): a worker
    // now takes a finalize with a child still to run.
    const again = (await itemQueue.getJob(jobIds.item(`${batchId}-0002`)))!;
    await itemQueue.add(JOBS.processItem, again.data, {
      ...itemJobOptions(2),
      jobId: `again-${batchId}-0002`,
      parent: { id: finalize.id!, queue: batchQueue.qualifiedName },
    });
    expect(await finalize.getDependenciesCount({ unprocessed: true })).toEqual({ unprocessed: 1 });
    const ledgerBefore = (await p.rt.ctx.catalog.getBatch(batchId))!;
    expect(ledgerBefore).toMatchObject({ state: 'running', ok: 3 });
    const batchWorker = await startBatch();
    const taken = await waitUntil(
      async () => {
        const state = await finalize.getState();
        return state !== 'waiting' && state !== 'active' && state;
      },
      60_000,
      'the worker to take the finalize',
    );
    // Before the fix it closed the batch here, and BullMQ then failed it ("has pending dependencies") and queued it again: 'delayed'.
    expect(taken).toBe('waiting-children');
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'running', finishedAt: null });
    expect(existsSync(path.join(p.config.dataDir, 'batches', batchId, 'records.ndjson'))).toBe(false);
    expect(finalize.attemptsMade).toBe(0);

    // The child runs: the finalize runs after it, once, and closes the batch.
    const closed = nextEnd(batchWorker, finalize.id!);
    items = await startItems();
    expect(await closed).toBe('completed');
    await waitForBatches(p.rt, [batchId], { progress: false, timeoutMs: 60_000 });
    const ledger = (await p.rt.ctx.catalog.getBatch(batchId))!;
    expect(ledger).toMatchObject({ state: 'done', ok: 3, failed: 0 });
    expect(recordsOf(batchId)).toHaveLength(3);
    expect(summaryOf(batchId)).toMatchObject({ items: 3, ok: 3, failed: 0 });
    expect(await itemQueue.getJobCounts(...PENDING)).toEqual(Object.fromEntries(PENDING.map((s) => [s, 0])));
    expect(await batchQueue.getJobCounts('failed')).toEqual({ failed: 0 });
  });
});
