import { Queue } from 'bullmq';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { QUEUES, queuePrefix } from '../../src/queues/definitions';
import { expectBatchWhole } from '../helpers/integrity';
import { CliProcess, startReadyWorker, waitUntil } from '../helpers/processes';
import { REDIS_URL, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * SIGTERM to `worker` and `run`: items in flight finish (their records written) and the process
 * exits; items not started stay queued for the next worker or run. A second signal exits at once;
 * what was in flight goes back to the queue when its lock expires (PHOTOWIRE_LOCK_MS, short here).
 * Every item is held 1.5 s in its dedup step (test-only pause) so that "in flight" is certain.
 */
jest.setTimeout(scaledMs(120_000));

const ITEMS = 8;
const CHUNK = 2;

describe('SIGTERM to worker and run', () => {
  const root = makeTmpDir('signals');
  const procs: CliProcess[] = [];
  const opened: Array<{ rt: Runtime; queue: Queue; prefix: string }> = [];
  let n = 0;

  /** A fresh prefix, data dir and caption manifest per test. */
  async function setup() {
    const prefix = uniquePrefix('sig');
    const dir = path.join(root, String(++n));
    // Caption-only items go in chunks: chunks of 2 items, so some are in flight and some wait.
    const env = {
      REDIS_URL,
      PHOTOWIRE_PREFIX: prefix,
      PHOTOWIRE_DATA_DIR: path.join(dir, 'data'),
      PHOTOWIRE_LOCK_MS: '2000',
      PHOTOWIRE_CHUNK_SIZE: String(CHUNK),
    };
    const rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
    const queue = new Queue(QUEUES.item, { connection: rt.redis, prefix: queuePrefix(prefix) });
    opened.push({ rt, queue, prefix });
    mkdirSync(dir, { recursive: true });
    const manifest = path.join(dir, 'night.ndjson');
    const lines = Array.from({ length: ITEMS }, (_, i) =>
      JSON.stringify({
        id: `n${i}`,
        caption: `Night shift ${i}: a nurse checks on a patient in the intensive care unit of a hospital in Lyon.`,
      }),
    );
    writeFileSync(manifest, lines.join('\n') + '\n');
    const spawn = (args: string[], extra: Record<string, string> = {}) => {
      const p = CliProcess.start(args, { ...env, ...extra });
      procs.push(p);
      return p;
    };
    return { env, rt, queue, manifest, spawn };
  }

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    for (const o of opened) {
      await o.queue.close();
      await o.rt.close();
      await deletePrefix(o.prefix);
    }
    removeDir(root);
  });

  const pauses = (p: CliProcess, count: number) =>
    p
      .waitForLogs((l) => l.msg === 'test pause', count, 30_000, 'test pauses')
      .then((ls) => ls.map((l) => String(l.itemId)));

  it('worker: in-flight items finish, then it exits 0; the rest stay queued for the next worker', async () => {
    const { env, rt, queue, manifest } = await setup();
    const a = await startReadyWorker({ ...env, PHOTOWIRE_TEST_PAUSE_AT: 'dedup:1500' }, 2);
    procs.push(a);
    const [o] = await ingestPaths(rt, [manifest]);
    const inFlight = await pauses(a, 2);
    a.signal('SIGTERM');
    const exit = await a.exited;
    expect(exit.code).toBe(0);
    expect(a.logs.some((l) => l.msg === 'finishing in-flight jobs, then exiting')).toBe(true);
    // What was in flight was finished by this worker, and nothing is left locked.
    expect(a.itemsDone()).toEqual(expect.arrayContaining(inFlight));
    expect(await queue.getActiveCount()).toBe(0);
    const ledger = (await rt.ctx.catalog.getBatch(o.batchId!))!;
    expect(ledger.ok).toBe(a.itemsDone().length);
    expect(ledger.ok).toBeLessThan(ITEMS);
    expect(await queue.getWaitingCount()).toBe((ITEMS - ledger.ok) / CHUNK);

    const b = await startReadyWorker(env, 2);
    procs.push(b);
    await waitUntil(
      async () => (await rt.ctx.catalog.getBatch(o.batchId!))?.state === 'done',
      60_000,
      'the batch to finish',
    );
    await expectBatchWhole(rt, o.batchId!, { items: ITEMS, ok: ITEMS });
    expect(new Set([...a.itemsDone(), ...b.itemsDone()]).size).toBe(ITEMS);
    expect(b.itemsDone().filter((id) => a.itemsDone().includes(id))).toEqual([]);
  });

  it('worker: a second signal exits at once; its in-flight items are taken by the next worker', async () => {
    const { env, rt, manifest } = await setup();
    const a = await startReadyWorker({ ...env, PHOTOWIRE_TEST_PAUSE_AT: 'dedup' }, 2);
    procs.push(a);
    const [o] = await ingestPaths(rt, [manifest]);
    const inFlight = await pauses(a, 2);
    a.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(a.alive).toBe(true); // still waiting for the paused items
    const second = Date.now();
    a.signal('SIGTERM');
    const exit = await a.exited;
    expect(exit.code).toBe(130);
    expect(exit.at - second).toBeLessThan(scaledMs(2000));
    expect(a.itemsDone()).toEqual([]);

    const b = await startReadyWorker(env, 2);
    procs.push(b);
    await waitUntil(
      async () => (await rt.ctx.catalog.getBatch(o.batchId!))?.state === 'done',
      60_000,
      'the batch to finish',
    );
    await expectBatchWhole(rt, o.batchId!, { items: ITEMS, ok: ITEMS });
    expect(b.itemsDone()).toEqual(expect.arrayContaining(inFlight));
  });

  it('run: in-flight items finish, it exits 130, and running it again completes the batch once', async () => {
    const { rt, queue, manifest, spawn } = await setup();
    const first = spawn(['run', manifest, '--json', '--concurrency', '2'], { PHOTOWIRE_TEST_PAUSE_AT: 'dedup:1500' });
    const inFlight = await pauses(first, 2);
    first.signal('SIGTERM');
    const exit = await first.exited;
    expect(exit.code).toBe(130);
    expect(first.plain.join('\n')).toContain('stopping: finishing in-flight items');
    expect(first.itemsDone()).toEqual(expect.arrayContaining(inFlight));
    expect(await queue.getActiveCount()).toBe(0);
    const batchId = (await rt.ctx.catalog.listBatches(1))[0];
    const partial = (await rt.ctx.catalog.getBatch(batchId))!;
    expect(partial.ok).toBe(first.itemsDone().length);
    expect(partial.state).not.toBe('done');

    const again = spawn(['run', manifest, '--json', '--concurrency', '2']);
    const done = await again.exited;
    expect({ code: done.code, stderr: again.plain }).toEqual({ code: 0, stderr: [] });
    expect(JSON.parse(again.stdout)).toMatchObject({ items: ITEMS, ok: ITEMS, failed: 0 });
    await expectBatchWhole(rt, batchId, { items: ITEMS, ok: ITEMS });
    expect(again.itemsDone().filter((id) => first.itemsDone().includes(id))).toEqual([]);
  });

  it('run: a second signal exits at once; the next run takes the abandoned items after their lock expires', async () => {
    const { rt, manifest, spawn } = await setup();
    const first = spawn(['run', manifest, '--json', '--concurrency', '2'], { PHOTOWIRE_TEST_PAUSE_AT: 'dedup' });
    const inFlight = await pauses(first, 2);
    first.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const second = Date.now();
    first.signal('SIGTERM');
    const exit = await first.exited;
    expect(exit.code).toBe(130);
    expect(exit.at - second).toBeLessThan(scaledMs(2000));

    const again = spawn(['run', manifest, '--json', '--concurrency', '2']);
    const done = await again.exited;
    expect(done.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ items: ITEMS, ok: ITEMS, failed: 0 });
    const batchId = (await rt.ctx.catalog.listBatches(1))[0];
    await expectBatchWhole(rt, batchId, { items: ITEMS, ok: ITEMS });
    expect(again.itemsDone()).toEqual(expect.arrayContaining(inFlight));
  });
});
