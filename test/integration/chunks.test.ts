import { Job, Queue } from 'bullmq';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { QUEUES, jobIds, queuePrefix } from '../../src/queues/definitions';
import { retryItems } from '../../src/app/batches/retryItems';
import type { CatalogRecord } from '../../src/schemas/record';
import { expectBatchWhole } from '../helpers/integrity';
import { openRuntime } from '../helpers/pipeline';
import { type CliProcess, startReadyWorker, waitUntil } from '../helpers/processes';
import { deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Caption-only items in chunks (one job per range of batch indexes, its records stored in
 * one MARK_ITEMS step), with real worker processes: the records are those one job per item gives,
 * a chunk killed mid-way and run again neither doubles nor loses a record, a bad line fails alone,
 * and a chunk whose workers keep dying ends as WORKER_LOST items that `retry` runs again one by one.
 */
jest.setTimeout(scaledMs(180_000));

const BASES = [
  'Rescue workers search the rubble of a collapsed building in Izmir, Turkey, on 31 October 2026 after a strong earthquake shook the Aegean coast.',
  'A man carries a child through floodwater in Valencia, Spain, as heavy rain swept the region on Tuesday.',
  'Fans of Galatasaray light flares before the derby against Fenerbahce at the Rams Park stadium in Istanbul.',
  'Farmers drive tractors towards the European Parliament in Brussels to protest against trade rules.',
  'The northern lights glow over a fishing village in the Lofoten islands, Norway.',
];
const TAILS = [' REUTERS/Susana Vera', ' AFP PHOTO / OZAN KOSE', ' (AP Photo/Jan Berg)', ' EPA-EFE/KIKO HUESCA', ''];

/** n caption-only lines: near-duplicates of a few stories with credit tails; line `bad` (1-based) is not JSON. */
function feed(dir: string, name: string, n: number, bad: number | null): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    if (bad !== null && i + 1 === bad) {
      lines.push('{"id": "broken", "caption": ');
      continue;
    }
    const base = BASES[i % BASES.length];
    const caption =
      (i % 3 === 0 ? base : i % 3 === 1 ? base.replace(/\.$/, '') : `${base} Day ${Math.floor(i / 15)}.`) +
      TAILS[i % TAILS.length];
    lines.push(JSON.stringify({ id: `${name}-${i + 1}`, caption, headline: `Item ${i + 1}` }));
  }
  const file = path.join(dir, `${name}.ndjson`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** A record without the time it was processed: what must be equal between two runs of the same feed. */
const timeless = (r: CatalogRecord) => ({ ...r, processedAt: null });

describe('caption-only items in chunks', () => {
  const feeds = makeTmpDir('chunk-feeds');
  const cleanups: Array<() => Promise<void>> = [];

  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    removeDir(feeds);
  });

  /** A prefix, data folder and runtime of its own (the runtime enqueues, so its PHOTOWIRE_CHUNK_SIZE decides the jobs). */
  async function setup(label: string, extra: Record<string, string> = {}) {
    const prefix = uniquePrefix(label);
    const dataDir = makeTmpDir(`${label}-data`);
    const env = pipelineEnv(prefix, dataDir, extra);
    const rt = await openRuntime(env);
    const procs: CliProcess[] = [];
    cleanups.push(async () => {
      await Promise.all(procs.map((p) => p.stop()));
      await rt.close();
      await deletePrefix(prefix);
      removeDir(dataDir);
    });
    const worker = async (more: Record<string, string> = {}, concurrency = 2) => {
      const w = await startReadyWorker({ ...env, ...more }, concurrency);
      procs.push(w);
      return w;
    };
    const done = (batchId: string, timeoutMs = 90_000) =>
      waitUntil(
        async () => (await rt.ctx.catalog.getBatch(batchId))?.state === 'done',
        timeoutMs,
        `batch ${batchId} to finish`,
      );
    return { prefix, env, rt, worker, done };
  }

  it("a chunk's records, counts and failures equal those of one job per item for the same feed; a bad line fails alone", async () => {
    const file = feed(feeds, 'same', 230, 117);
    const perItem = await setup('chunk-one', { PHOTOWIRE_CHUNK_SIZE: '1' });
    const chunked = await setup('chunk-many', { PHOTOWIRE_CHUNK_SIZE: '100' });
    const results: Array<{ records: CatalogRecord[]; rt: Runtime; batchId: string }> = [];
    for (const s of [perItem, chunked]) {
      const w = await s.worker();
      const [o] = await ingestPaths(s.rt, [file]);
      await s.done(o.batchId!);
      const { records } = await expectBatchWhole(s.rt, o.batchId!, { items: 230, ok: 229 });
      results.push({ records, rt: s.rt, batchId: o.batchId! });
      // how the items went: one job each, or 3 chunks ([0,100), [100,200), [200,230))
      const chunkDone = w.logs.filter((l) => l.msg === 'chunk done');
      expect(chunkDone.map((l) => l.jobId).sort()).toEqual(
        s === perItem
          ? []
          : [
              jobIds.chunk(o.batchId!, 0, 100),
              jobIds.chunk(o.batchId!, 100, 200),
              jobIds.chunk(o.batchId!, 200, 230),
            ].sort(),
      );
      expect(new Set(w.itemsDone()).size).toBe(229);
    }
    const [a, b] = results;
    expect(a.batchId).toBe(b.batchId);
    expect(b.records.length).toBe(230);
    for (let i = 0; i < a.records.length; i++) expect(timeless(b.records[i])).toEqual(timeless(a.records[i]));
    expect(await b.rt.ctx.catalog.counters(b.batchId)).toEqual(await a.rt.ctx.catalog.counters(a.batchId));
    const failures = async (x: (typeof results)[number]) =>
      (await x.rt.ctx.catalog.getFailed(x.batchId)).map((f) => ({ ...f, at: null }));
    expect(await failures(b)).toEqual(await failures(a));
    // The bad line failed alone, with its code and line; its chunk's 99 other items are ok.
    const bad = b.records[116];
    expect(bad.error?.code).toBe('FEED_MALFORMED');
    expect(b.records.slice(100, 200).filter((r) => r.error)).toHaveLength(1);
    // `retry` of the batch lists it as not retried, as it does for an item job: the feed itself is bad there.
    const out = await retryItems(b.rt, b.batchId);
    expect(out?.retried).toEqual([]);
    expect(out?.skipped).toEqual([{ itemId: bad.id, reason: expect.stringContaining('FEED_MALFORMED') }]);
  });

  it('a worker killed after its chunk stored its records: the next one runs the chunk again and no record is doubled or lost', async () => {
    const s = await setup('chunk-kill', { PHOTOWIRE_LOCK_MS: '2000' });
    const file = feed(feeds, 'kill', 150, null);
    const a = await s.worker({ PHOTOWIRE_TEST_PAUSE_AT: 'chunk' });
    const [o] = await ingestPaths(s.rt, [file]);
    const batchId = o.batchId!;
    // Both chunks stored ([0,100) and [100,150)), their jobs not yet completed.
    await a.waitForLogs((l) => l.msg === 'test pause', 2, 60_000, 'chunk pauses');
    const stored = await s.rt.ctx.catalog.getBatch(batchId);
    expect(stored).toMatchObject({ ok: 150, state: 'running' });
    const before = await s.rt.ctx.catalog.counters(batchId);
    a.signal('SIGKILL');
    await a.exited;

    const b = await s.worker();
    await s.done(batchId);
    const { records } = await expectBatchWhole(s.rt, batchId, { items: 150, ok: 150 });
    // B ran both chunks again (their lock expired) and found every item recorded: nothing run twice.
    const reruns = b.logs.filter((l) => l.msg === 'chunk done');
    expect(reruns.map((l) => [l.skipped, l.stored])).toEqual(
      expect.arrayContaining([
        [100, 0],
        [50, 0],
      ]),
    );
    const queue = new Queue(QUEUES.item, { connection: s.rt.redis, prefix: queuePrefix(s.prefix) });
    try {
      expect((await Job.fromId(queue, jobIds.chunk(batchId, 0, 100)))!.stalledCounter).toBeGreaterThanOrEqual(1);
    } finally {
      await queue.close();
    }
    // Counters as they were after the one store (the clusters came after, in finalize).
    const after = await s.rt.ctx.catalog.counters(batchId);
    expect({ ...after, clusters: 0, distinctCaptions: 0, duplicates: 0, identical: 0, joinedEarlier: 0 }).toEqual({
      ...before,
      clusters: 0,
      distinctCaptions: 0,
      duplicates: 0,
      identical: 0,
      joinedEarlier: 0,
    });
    expect(new Set(records.map((r) => r.id)).size).toBe(150);
  });

  it('a chunk whose workers keep dying ends as WORKER_LOST items, and `retry` runs them again as item jobs', async () => {
    const s = await setup('chunk-lost', { PHOTOWIRE_LOCK_MS: '1000' });
    const file = feed(feeds, 'lost', 6, null);
    let w = await s.worker({ PHOTOWIRE_TEST_PAUSE_AT: 'dedup' });
    const [o] = await ingestPaths(s.rt, [file]);
    const batchId = o.batchId!;
    // BullMQ fails a job that stalls a third time (maxStalledCount 2): kill its worker three times inside the chunk.
    for (let kill = 0; kill < 3; kill++) {
      await w.waitForLogs((l) => l.msg === 'test pause', 1, 60_000, `pause ${kill + 1}`);
      w.signal('SIGKILL');
      await w.exited;
      w = await s.worker(kill < 2 ? { PHOTOWIRE_TEST_PAUSE_AT: 'dedup' } : {});
    }
    await s.done(batchId);
    const failed = await s.rt.ctx.catalog.getFailed(batchId);
    expect(failed.map((f) => f.code)).toEqual(Array(6).fill('WORKER_LOST'));
    expect(failed[0].message).toMatch(/died or stopped answering/);

    const out = await retryItems(s.rt, batchId);
    expect(out?.retried.sort()).toEqual(failed.map((f) => f.itemId).sort());
    await waitUntil(
      async () => {
        const l = await s.rt.ctx.catalog.getBatch(batchId);
        return l?.state === 'done' && l.ok === 6 ? l : null;
      },
      60_000,
      'the retried items',
    );
    await expectBatchWhole(s.rt, batchId, { items: 6, ok: 6 });
    // retried one by one, as item jobs; the chunk's job stays failed
    expect(w.itemsDone().sort()).toEqual(failed.map((f) => f.itemId).sort());
    const queue = new Queue(QUEUES.item, { connection: s.rt.redis, prefix: queuePrefix(s.prefix) });
    try {
      for (const f of failed)
        expect(await (await Job.fromId(queue, jobIds.item(f.itemId)))?.getState()).toBe('completed');
    } finally {
      await queue.close();
    }
  });

  it('chunks emptied from the queue mid-batch: their items end WORKER_LOST, read again from the feed by `retry`', async () => {
    const s = await setup('chunk-drained', { PHOTOWIRE_CHUNK_SIZE: '2' });
    const file = feed(feeds, 'drained', 8, null);
    // one chunk at a time, each item held 600 ms: chunks still wait when the queue is emptied
    const w = await s.worker({ PHOTOWIRE_TEST_PAUSE_AT: 'dedup:600' }, 1);
    const [o] = await ingestPaths(s.rt, [file]);
    const batchId = o.batchId!;
    await waitUntil(
      async () => ((await s.rt.ctx.catalog.getBatch(batchId))?.ok ?? 0) >= 2,
      30_000,
      'a first chunk done',
    );
    const queue = new Queue(QUEUES.item, { connection: s.rt.redis, prefix: queuePrefix(s.prefix) });
    await queue.drain(true);
    await queue.close();
    await s.done(batchId);
    const failed = await s.rt.ctx.catalog.getFailed(batchId);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const f of failed)
      expect([f.code, f.message]).toEqual(['WORKER_LOST', expect.stringMatching(/its job no longer exists/)]);
    const out = await retryItems(s.rt, batchId);
    expect(out?.retried.sort()).toEqual(failed.map((f) => f.itemId).sort());
    await waitUntil(
      async () => {
        const l = await s.rt.ctx.catalog.getBatch(batchId);
        return l?.state === 'done' && l.ok === 8 ? l : null;
      },
      60_000,
      'the retried items',
    );
    const { records } = await expectBatchWhole(s.rt, batchId, { items: 8, ok: 8 });
    expect(records.map((r) => r.headline)).toEqual([...Array(8).keys()].map((i) => `Item ${i + 1}`));
    expect(w.itemsDone().filter((id) => failed.some((f) => f.itemId === id))).toHaveLength(failed.length);
  });
});
