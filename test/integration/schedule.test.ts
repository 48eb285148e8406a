import { utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestPipeline } from '../helpers/pipeline';
import { makeTmpDir, pipelineEnv, removeDir } from '../helpers/testEnv';
import { createRedis } from '../../src/adapters/redis/connection';
import { runsCommand } from '../../src/cli/commands/runs';
import { enqueueFeed } from '../../src/queues/enqueueFeed';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { RunLog } from '../../src/adapters/redis/runLog';
import type { RunRecord } from '../../src/core/runs/runRecord';
import { Scheduler } from '../../src/app/jobs/scheduler';
import { scaledMs } from '../helpers/deadline';

async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + scaledMs(timeoutMs); // scaled by the load (test/helpers/deadline.ts)
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const HOUR_AGO = () => (Date.now() - 3_600_000) / 1000;

describe('scheduled imports (real Redis, BullMQ job schedulers, real files)', () => {
  let p: TestPipeline;
  let runs: RunLog;
  const dirs: string[] = [];
  const open: Scheduler[] = [];

  /** A source folder; its files look delivered an hour ago unless `young`. */
  async function source(files: string[], seed: number): Promise<string> {
    const dir = makeTmpDir('src');
    dirs.push(dir);
    for (const [i, f] of files.entries()) await put(dir, f, seed + i);
    return dir;
  }
  async function put(dir: string, name: string, seed: number, young = false): Promise<void> {
    const file = path.join(dir, name);
    writeFileSync(file, await syntheticPhoto({ width: 320, height: 240, seed }));
    if (!young) utimesSync(file, HOUR_AGO(), HOUR_AGO());
  }
  function scheduler(): Scheduler {
    const s = new Scheduler(p.rt, { lockTtlMs: 5000 });
    open.push(s);
    return s;
  }
  const workerConnection = () => createRedis(p.rt.redisHandle.url, { forWorker: true, name: 'test-scheduler' });
  const finished = async (schedule: string) =>
    (await runs.list({ schedule, limit: 100 })).filter((r) => r.state !== 'running').reverse();
  const takenFiles = async (rs: RunRecord[]) =>
    (await Promise.all(rs.filter((r) => r.batchId).map((r) => p.rt.ctx.catalog.getRecords(r.batchId!))))
      .flat()
      .map((rec) => path.basename(rec.source.file));

  beforeAll(async () => {
    // Files younger than 10 minutes count as still being written.
    p = await TestPipeline.start({ overrides: { PHOTOWIRE_SETTLE_MS: '600000' } });
    runs = new RunLog(p.rt.redis, p.config.prefix);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await p.close();
    for (const d of dirs) removeDir(d);
  });

  it('a schedule fires, takes only what is new each time, records its runs, and a restart does not double it', async () => {
    const src = await source(['a.jpg', 'b.jpg'], 1);
    await put(src, 'young.jpg', 3, true);
    const s1 = scheduler();
    await s1.upsert({ name: 'nightly', every: 1500, source: src });
    await s1.startWorker(workerConnection());

    const [first] = await waitFor('the first run', async () => {
      const f = await finished('nightly');
      return f.length >= 1 && f;
    });
    expect(first).toMatchObject({
      schedule: 'nightly',
      source: src,
      trigger: 'schedule',
      state: 'done',
      files: 2,
      items: 2,
      ok: 2,
      failed: 0,
    });
    expect(first.note).toMatch(/1 file\(s\) still being written, left for the next run: young.jpg/);
    expect(first.durationMs).toBeGreaterThanOrEqual(0);

    const second = await waitFor('a run that finds nothing', async () => (await finished('nightly'))[1]);
    expect(second).toMatchObject({ state: 'empty', files: 0, items: 0, batchId: null });
    expect(second.note).toMatch(
      /^nothing new since the last run \(\d\d:\d\d\); 1 file still being written \(young\.jpg\); next check (\d{4}-\d\d-\d\d )?\d\d:\d\d$/,
    );

    await put(src, 'c.jpg', 4);
    utimesSync(path.join(src, 'young.jpg'), HOUR_AGO(), HOUR_AGO());
    const third = await waitFor('the run that takes the new files', async () =>
      (await finished('nightly')).find((r, i) => i > 0 && r.state === 'done'),
    );
    expect(third).toMatchObject({ files: 2, items: 2, ok: 2 });

    // Restart: a new process applies the same schedule from its config file.
    await s1.close();
    const before = (await finished('nightly')).length;
    const file = path.join(makeTmpDir('conf'), 'schedules.json');
    dirs.push(path.dirname(file));
    writeFileSync(file, JSON.stringify([{ name: 'nightly', every: 1500, source: src }]));
    const s2 = scheduler();
    expect((await s2.applyFile(file)).map((d) => d.name)).toEqual(['nightly']);
    await s2.startWorker(workerConnection());
    // Empty runs after the restart fold into one row (foldEmptyRun.ts): one new row, two checks or more.
    const after = await waitFor('two runs after the restart', async () => {
      const f = await finished('nightly');
      return f.length > before && (f[f.length - 1].checks ?? 1) >= 2 && f.slice(before);
    });
    expect(after.map((r) => r.state)).toEqual(['empty']);

    const all = await finished('nightly');
    expect((await takenFiles(all)).sort()).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'young.jpg']);
    expect(await s2.list()).toEqual([expect.objectContaining({ name: 'nightly', every: 1500, source: src })]);
    expect(await s2.remove('nightly')).toBe(true);
    expect(await s2.list()).toEqual([]);
  });

  it('an every-second schedule: its first run says what is true, empty runs fold into one row, a run that takes something stands apart, batches are named by schedule and source', async () => {
    const src = await source([], 0);
    await put(src, 'young.jpg', 60, true);
    const s = scheduler();
    await s.upsert({ name: 'every-second', every: 1000, source: src });
    await s.startWorker(workerConnection());

    // The first run: no "last run" to speak of; what is true is that a file is still being written.
    const [first] = await waitFor('the first run', async () => {
      const f = await finished('every-second');
      return f.length >= 1 && f;
    });
    expect(first).toMatchObject({ state: 'empty', files: 0, batchId: null });
    expect(first.note).toMatch(
      /^first run: 1 file still being written \(young\.jpg\); next check (\d{4}-\d\d-\d\d )?\d\d:\d\d$/,
    );

    // Empty checks fold into that one row.
    const stretch = await waitFor('three empty checks', async () => {
      const f = await finished('every-second');
      return f.length === 1 && (f[0].checks ?? 1) >= 3 && f[0];
    });
    expect(stretch).toMatchObject({ id: first.id, state: 'empty', startedAt: first.startedAt });
    expect(Date.parse(stretch.lastAt!)).toBeGreaterThan(Date.parse(first.startedAt));
    expect(stretch.note).toMatch(
      /^nothing new since the last run \(\d\d:\d\d\); 1 file still being written \(young\.jpg\); next check/,
    );

    // A run that takes something is its own row; the empty runs after it start a new stretch.
    await put(src, 'new.jpg', 61);
    const done = await waitFor('a run that takes new.jpg', async () =>
      (await finished('every-second')).find((r) => r.state === 'done'),
    );
    expect(done).toMatchObject({ files: 1, ok: 1 });
    const name = `every-second-${path.basename(src).toLowerCase()}`;
    expect(done.batchId).toMatch(new RegExp(`^${name}-[0-9a-f]{12}$`));
    expect(await p.rt.ctx.catalog.getBatch(done.batchId!)).toMatchObject({
      feed: name,
      format: 'scheduled-folder',
      ok: 1,
    });
    const rows = await waitFor('a new stretch after the run that took something', async () => {
      const f = await finished('every-second');
      return f.length === 3 && (f[2].checks ?? 1) >= 2 && f;
    });
    expect(rows.map((r) => r.state)).toEqual(['empty', 'done', 'empty']);
    expect(rows[0].checks).toBeGreaterThanOrEqual(3);
    await s.remove('every-second');
  });

  it('a cron run missed while nothing ran is caught up once, not once per missed tick', async () => {
    const src = await source(['x.jpg'], 10);
    const s = scheduler();
    // Every second, with no scheduler process running: ticks go by.
    await s.upsert({ name: 'missed', cron: '*/1 * * * * *', source: src });
    const overdue = (await s.get('missed'))!.next!;
    await waitFor('three ticks to pass', () => Date.now() > overdue + 3000);

    // The scheduler starts again with the real (nightly) timing.
    const r = await s.upsert({ name: 'missed', cron: '0 0 2 * * *', tz: 'Europe/London', source: src });
    expect(r.caughtUp).toBe(true);
    expect(r.next).toBeGreaterThan(Date.now() + 60_000);
    expect((await s.upsert({ name: 'missed', cron: '0 0 2 * * *', tz: 'Europe/London', source: src })).caughtUp).toBe(
      false,
    );

    await s.startWorker(workerConnection());
    const [run] = await waitFor('the catch-up run', async () => {
      const f = await finished('missed');
      return f.length >= 1 && f;
    });
    expect(run).toMatchObject({ trigger: 'catch-up', state: 'done', files: 1 });
    await waitFor('the queue to settle', async () => {
      const c = await s.queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
      return c.wait === 0 && c.active === 0 && c.prioritized === 0 && c;
    });
    // Nothing else is due before the next night: one catch-up, not one per missed tick.
    expect(await s.queue.getJobCounts('delayed')).toEqual({ delayed: 1 });
    expect(await runs.list({ schedule: 'missed' })).toHaveLength(1);
  });

  it('two runs of one schedule never overlap; the second takes nothing twice', async () => {
    const src = await source(['o1.jpg', 'o2.jpg', 'o3.jpg'], 20);
    const s = scheduler();
    await s.upsert({ name: 'overlap', cron: '0 0 3 * * *', source: src });
    await s.startWorker(workerConnection(), { concurrency: 4 });
    await Promise.all([s.runNow('overlap'), s.runNow('overlap')]);
    const both = await waitFor('both runs', async () => {
      const f = await finished('overlap');
      return f.length >= 2 && f;
    });
    both.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    expect(both.map((r) => [r.trigger, r.state, r.files])).toEqual([
      ['manual', 'done', 3],
      ['manual', 'empty', 0],
    ]);
    expect(Date.parse(both[0].finishedAt!)).toBeLessThanOrEqual(Date.parse(both[1].startedAt));
  });

  it('a run interrupted after choosing its files is finished at the next start, with the same batch', async () => {
    const src = await source(['i1.jpg', 'i2.jpg'], 30);
    const s = scheduler();
    await s.upsert({ name: 'crash', cron: '0 0 4 * * *', source: src });
    // What a scheduler killed mid-run leaves behind: a pending run whose batch is enqueued.
    const pending = (await s.runner.prepare(
      { schedule: 'crash', source: src, trigger: 'schedule' },
      'run-before-crash',
    ))!;
    await enqueueFeed(
      { catalog: p.rt.ctx.catalog, flow: p.rt.flow, prefix: p.config.prefix, attempts: p.config.attempts },
      pending.feed,
    );
    expect(await runs.get('run-before-crash')).toMatchObject({ state: 'running', files: 2 });

    await s.startWorker(workerConnection());
    const resumed = await waitFor('the interrupted run to finish', async () => {
      const r = await runs.get('run-before-crash');
      return r?.state === 'done' && r;
    });
    expect(resumed).toMatchObject({ batchId: pending.feed.batchId, files: 2, items: 2, ok: 2 });

    const manual = await s.runNow('crash');
    const again = await waitFor('a manual run', async () => {
      const r = await runs.get(manual);
      return r && r.state !== 'running' && r;
    });
    expect(again).toMatchObject({ state: 'empty' });
    expect(await runs.list({ schedule: 'crash' })).toHaveLength(2);
    const batches = await Promise.all(
      (await p.rt.ctx.catalog.listBatches(500)).map((id) => p.rt.ctx.catalog.getBatch(id)),
    );
    expect(batches.filter((b) => b!.feed === `crash-${path.basename(src).toLowerCase()}`).map((b) => b!.id)).toEqual([
      pending.feed.batchId,
    ]);
  });

  it('refuses a schedule whose source does not exist or whose cron is not one, naming it', async () => {
    const s = scheduler();
    await expect(s.upsert({ name: 'bad', every: 60_000, source: '/nonexistent/drop' })).rejects.toThrow(
      /schedule bad: source \/nonexistent\/drop is not a folder/,
    );
    const src = await source([], 0);
    await expect(s.upsert({ name: 'bad', cron: 'at two in the morning', source: src })).rejects.toThrow(
      /schedule bad: cron "at two in the morning" was refused/,
    );
    expect(await s.get('bad')).toBeNull();
  });

  it('photowire runs lists the runs, says when one found nothing, and reports a source that has gone quiet', async () => {
    const src = await source(['q1.jpg'], 40);
    const s = scheduler();
    await s.upsert({ name: 'quiet', cron: '0 0 5 * * *', source: src });
    await s.startWorker(workerConnection());
    for (const state of ['done', 'empty']) {
      const id = await s.runNow('quiet');
      await waitFor(`a ${state} run`, async () => (await runs.get(id))?.state === state);
    }
    const out: string[] = [];
    const saved = { ...process.env };
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    try {
      // The pipeline's Redis in this mode (a cluster URL is not a REDIS_URL: REDIS_CLUSTER_NODES).
      Object.assign(
        process.env,
        pipelineEnv(p.config.prefix, p.config.dataDir, {
          LOG_LEVEL: 'silent',
          // Quiet for over about a second counts as stale here.
          PHOTOWIRE_STALE_HOURS: '0.0003',
        }),
      );
      await sleep(1500);
      expect(await runsCommand({ schedule: 'quiet' })).toBe(0);
      const textChunks = out.length;
      expect(await runsCommand({ schedule: 'quiet', json: true })).toBe(0);
      const text = out.slice(0, textChunks).join('');
      const lines = text.split('\n');
      expect(lines[0]).toMatch(
        /^schedule\s+start\s+duration\s+files\s+items\s+ok\s+dup\s+failed\s+state\s+batch\s+source$/,
      );
      expect(lines[1]).toMatch(/^quiet\s.*\s0\s+0\s+0\s+0\s+0\s+empty\s+-\s+\/tmp\//);
      expect(lines[2]).toMatch(
        /^ {4}nothing new since the last run \(\d\d:\d\d\); next check (\d{4}-\d\d-\d\d )?05:00$/,
      );
      const doneRun = (await runs.list({ schedule: 'quiet' })).find((r) => r.state === 'done')!;
      expect(lines[3]).toMatch(
        new RegExp(`^quiet\\s.*\\s1\\s+1\\s+1\\s+0\\s+0\\s+done\\s+${doneRun.batchId}\\s+/tmp/`),
      );
      expect(doneRun.batchId).toMatch(/^quiet-photowire-src-[a-z0-9]+-[0-9a-f]{12}$/);
      expect(text).toMatch(/STALE schedule quiet \(.*\): nothing new for/);
      const json = JSON.parse(out.slice(textChunks).join(''));
      expect(json.runs.map((r: RunRecord) => r.state)).toEqual(['empty', 'done']);
      expect(json.sources).toEqual([
        expect.objectContaining({ kind: 'schedule', name: 'quiet', source: src, stale: true }),
      ]);
    } finally {
      write.mockRestore();
      process.env = saved;
      await s.remove('quiet');
    }
  });
});
