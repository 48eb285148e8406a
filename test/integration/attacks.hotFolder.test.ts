import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { dayFolder } from '../../src/app/hotFolder/destination';
import { RunLog } from '../../src/adapters/redis/runLog';
import { CliProcess, waitUntil } from '../helpers/processes';
import { REDIS_URL, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 18, attacks 2 and 3, with a real `photowire watch` / `photowire scheduler` process and
 * real symlinks (docs/RELIABILITY.md "Attacks"):
 *  - a folder holding `a -> .` and `b -> .` must not hang the watcher or the scheduler: later drops
 *    are still taken in the normal time and SIGTERM ends the process promptly;
 *  - a symlink dropped into a hot folder (to a folder or a photo outside it) is refused with
 *    PATH_OUTSIDE_FEED, moved to failed/ with its .error.json, and nothing of the outside is ingested;
 *  - inside a folder feed, a symlinked photo pointing outside is refused, and dot files and special
 *    files are listed in the batch's warnings, not skipped without a word;
 *  - the same bytes dropped again with a new mtime land on the same batch.
 */
jest.setTimeout(scaledMs(120_000));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const today = () => dayFolder(new Date());
/**
 * How long a plain photo may take from drop to processed/ on an idle machine (settle 300 ms, scan
 * 200 ms, one render; 12 s measured alone on a 2-core box). Waits scale it by the load
 * (waitUntil, test/helpers/deadline.ts); so does the "in the normal time" check below.
 */
const NORMAL_MS = 20_000;
/** SIGTERM to exit, idle machine: the "promptly" the attacks must not break. */
const PROMPT_EXIT_MS = 5000;

/** Every file below `dir` (no symlinks followed), relative paths. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

describe('hot folders and folder walks under attack (real processes, real symlinks)', () => {
  const root = makeTmpDir('attacks-hot');
  const procs: CliProcess[] = [];
  const opened: Array<{ rt: Runtime; prefix: string }> = [];
  let n = 0;
  let outsidePhoto: Buffer;
  let outside: string;

  beforeAll(async () => {
    // A folder elsewhere on the disk, with a photo no hot folder should ever let in.
    outside = path.join(root, 'elsewhere');
    mkdirSync(outside, { recursive: true });
    outsidePhoto = await syntheticPhoto({ width: 400, height: 300, seed: 901 });
    writeFileSync(path.join(outside, 'secret.jpg'), outsidePhoto);
  });

  async function setup(extraEnv: Record<string, string> = {}) {
    const prefix = uniquePrefix('atk');
    const dir = path.join(root, String(++n));
    const hot = path.join(dir, 'hot');
    mkdirSync(hot, { recursive: true });
    const dataDir = path.join(dir, 'data');
    const env = {
      REDIS_URL,
      PHOTOWIRE_PREFIX: prefix,
      PHOTOWIRE_DATA_DIR: dataDir,
      PHOTOWIRE_SETTLE_MS: '300',
      ...extraEnv,
    };
    const rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
    opened.push({ rt, prefix });
    const spawn = (args: string[]) => {
      const p = CliProcess.start(args, env);
      procs.push(p);
      return p;
    };
    return { dir, hot, dataDir, rt, spawn, prefix };
  }

  async function startWatcher(spawn: (args: string[]) => CliProcess, hot: string): Promise<CliProcess> {
    const w = spawn(['watch', hot, '--with-workers', '--concurrency', '2', '--settle-ms', '300', '--scan-ms', '200']);
    await w.waitForLogs((l) => l.msg === 'watching hot folders', 1, 20_000, '"watching hot folders"');
    return w;
  }

  /** SIGTERM, and the time it took to exit. */
  async function terminate(p: CliProcess): Promise<{ ms: number; code: number | null }> {
    const t0 = Date.now();
    p.signal('SIGTERM');
    const limit = scaledMs(2 * PROMPT_EXIT_MS);
    const exit = await p.exitWithin(limit);
    if (!exit) throw new Error(`pid ${p.pid} still running ${limit} ms after SIGTERM; stderr:\n${p.tail()}`);
    return { ms: exit.at - t0, code: exit.code };
  }

  async function allBatches(rt: Runtime) {
    const ids = await rt.ctx.catalog.listBatches(500);
    return Promise.all(
      ids.map(async (id) => ({
        ledger: (await rt.ctx.catalog.getBatch(id))!,
        records: await rt.ctx.catalog.getRecords(id),
      })),
    );
  }

  /** Nothing of the outside folder in the catalog or the data directory's originals. */
  async function expectNothingFromOutside(rt: Runtime, dataDir: string): Promise<void> {
    const batches = await allBatches(rt);
    const records = batches.flatMap((b) => b.records);
    expect(records.filter((r) => r.image?.sha256 === sha(outsidePhoto))).toEqual([]);
    expect(records.filter((r) => r.source.file.includes('secret.jpg') && r.error === null)).toEqual([]);
    for (const f of filesBelow(path.join(dataDir, 'originals')))
      expect(sha(readFileSync(f))).not.toBe(sha(outsidePhoto));
  }

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    for (const o of opened) {
      await o.rt.close();
      await deletePrefix(o.prefix);
    }
    removeDir(root);
  });

  it('a folder dropped with a -> . and b -> . inside: later drops are still taken in the normal time, SIGTERM ends the watcher promptly', async () => {
    const { hot, rt, spawn } = await setup();
    const w = await startWatcher(spawn, hot);

    // Built beside the hot folder and moved in at once, as a sender's rename would.
    const staging = path.join(path.dirname(hot), 'loop');
    mkdirSync(staging);
    writeFileSync(path.join(staging, 'inside.jpg'), await syntheticPhoto({ width: 500, height: 400, seed: 902 }));
    symlinkSync('.', path.join(staging, 'a'));
    symlinkSync('.', path.join(staging, 'b'));
    renameSync(staging, path.join(hot, 'loop'));
    // The watcher has walked the loop folder (a walk that followed a -> . would never get here).
    await w.waitForLogs(
      (l) => l.msg === 'hot folder: file taken' && l.file === 'loop',
      1,
      NORMAL_MS,
      'the loop folder taken',
    );
    const later = await syntheticPhoto({ width: 500, height: 400, seed: 903 });
    const droppedAt = Date.now();
    writeFileSync(path.join(hot, 'later.jpg'), later);

    const laterMoved = path.join(hot, 'processed', today(), 'later.jpg');
    await waitUntil(
      async () => existsSync(laterMoved),
      NORMAL_MS,
      `later.jpg to reach processed/ (watcher stderr:\n${w.tail()})`,
    );
    expect(Date.now() - droppedAt).toBeLessThan(scaledMs(NORMAL_MS));
    const loopMoved = path.join(hot, 'processed', today(), 'loop');
    await waitUntil(async () => existsSync(loopMoved), NORMAL_MS, 'the loop folder to reach processed/');

    // The loop folder was one batch: its photo, and its two symlinked folders named in the warnings.
    const loopBatch = (await allBatches(rt)).find((b) => b.ledger.feed === path.join(hot, 'loop'))!;
    expect(loopBatch.ledger).toMatchObject({ expected: 1, ok: 1, failed: 0, state: 'done' });
    expect(loopBatch.ledger.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/loop\/a: skipped, a symlinked folder/),
        expect.stringMatching(/loop\/b: skipped, a symlinked folder/),
      ]),
    );

    const { ms, code } = await terminate(w);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(scaledMs(PROMPT_EXIT_MS));
  });

  it('ln -s <outside folder> hot/innocent-folder (and a symlinked photo): refused with PATH_OUTSIDE_FEED, moved to failed/, nothing ingested', async () => {
    const { hot, dataDir, rt, spawn } = await setup();
    const w = await startWatcher(spawn, hot);
    symlinkSync(outside, path.join(hot, 'innocent-folder'));
    symlinkSync(path.join(outside, 'secret.jpg'), path.join(hot, 'innocent.jpg'));

    const failedDir = path.join(hot, 'failed', today());
    for (const name of ['innocent-folder', 'innocent.jpg']) {
      const report = path.join(failedDir, `${name}.error.json`);
      await waitUntil(async () => existsSync(report), NORMAL_MS, `${report} (watcher stderr:\n${w.tail()})`);
      const error = JSON.parse(readFileSync(report, 'utf8'));
      expect(error).toMatchObject({
        file: path.join(hot, name),
        movedTo: path.join(failedDir, name),
        code: 'PATH_OUTSIDE_FEED',
      });
      expect(error.message).toContain(name);
      expect(error.message).toMatch(/symlink/);
      // The link itself moved, not what it points to.
      expect(statSync(path.join(failedDir, name), { throwIfNoEntry: false })).toBeDefined();
      expect(existsSync(path.join(hot, name))).toBe(false);
    }
    expect(readFileSync(path.join(outside, 'secret.jpg')).equals(outsidePhoto)).toBe(true);
    await expectNothingFromOutside(rt, dataDir);
    expect(await allBatches(rt)).toEqual([]);
    expect((await terminate(w)).code).toBe(0);
  });

  it('a FIFO, a symlinked processed/ and a link planted under an .error.json name: nothing opened, nothing moved or written outside', async () => {
    const { hot, spawn } = await setup();
    const outside2 = path.join(path.dirname(hot), 'elsewhere2');
    mkdirSync(outside2);
    symlinkSync(outside2, path.join(hot, 'processed'));
    const failedDir = path.join(hot, 'failed', today());
    mkdirSync(failedDir, { recursive: true });
    symlinkSync(path.join(outside2, 'planted.json'), path.join(failedDir, 'bad.json.error.json'));
    expect(spawnSync('mkfifo', [path.join(hot, 'pipe.jpg')]).status).toBe(0);
    writeFileSync(path.join(hot, 'bad.json'), '{"caption": "not closed"');
    const w = await startWatcher(spawn, hot);
    writeFileSync(path.join(hot, 'photo.jpg'), await syntheticPhoto({ width: 500, height: 400, seed: 907 }));

    const inFailed = (name: string) => JSON.parse(readFileSync(path.join(failedDir, `${name}.error.json`), 'utf8'));
    await waitUntil(
      async () => existsSync(path.join(failedDir, 'pipe.jpg.error.json')),
      NORMAL_MS,
      `pipe.jpg refused (watcher stderr:\n${w.tail()})`,
    );
    expect(inFailed('pipe.jpg')).toMatchObject({
      code: 'FEED_UNREADABLE',
      message: expect.stringContaining('pipe.jpg: not a regular file or folder (a FIFO)'),
    });
    await waitUntil(
      async () => existsSync(path.join(failedDir, 'processed.error.json')),
      NORMAL_MS,
      'the processed symlink refused',
    );
    expect(inFailed('processed')).toMatchObject({ code: 'PATH_OUTSIDE_FEED' });
    // The planted link keeps its name; the report goes beside it under a free one.
    await waitUntil(
      async () => existsSync(path.join(failedDir, 'bad-2.json.error.json')),
      NORMAL_MS,
      'bad.json refused',
    );
    expect(inFailed('bad-2.json')).toMatchObject({ code: 'FEED_MALFORMED' });
    await waitUntil(
      async () => existsSync(path.join(hot, 'processed', today(), 'photo.jpg')),
      NORMAL_MS,
      'photo.jpg in a real processed/',
    );
    expect(lstatSync(path.join(hot, 'processed')).isDirectory()).toBe(true);
    expect(readdirSync(outside2)).toEqual([]);
    expect((await terminate(w)).code).toBe(0);
  });

  it('a folder feed: a symlinked photo pointing outside is refused, dot files and special files are listed in the warnings', async () => {
    const { hot, dataDir, rt, spawn } = await setup();
    const staging = path.join(path.dirname(hot), 'gallery');
    mkdirSync(staging);
    const ok = await syntheticPhoto({ width: 500, height: 400, seed: 904 });
    writeFileSync(path.join(staging, 'ok.jpg'), ok);
    symlinkSync(path.join(outside, 'secret.jpg'), path.join(staging, 'sneaky.jpg'));
    writeFileSync(path.join(staging, '..jpg'), ok);
    expect(spawnSync('mkfifo', [path.join(staging, 'pipe.jpg')]).status).toBe(0);
    renameSync(staging, path.join(hot, 'gallery'));
    const w = await startWatcher(spawn, hot);

    await waitUntil(
      async () => existsSync(path.join(hot, 'processed', today(), 'gallery')),
      NORMAL_MS,
      `gallery/ to reach processed/ (watcher stderr:\n${w.tail()})`,
    );
    const [batch] = (await allBatches(rt)).filter((b) => b.ledger.feed === path.join(hot, 'gallery'));
    expect(batch.ledger).toMatchObject({ expected: 2, ok: 1, failed: 1, state: 'done' });
    const byName = new Map(batch.records.map((r) => [path.basename(r.source.file), r]));
    expect(byName.get('ok.jpg')!.error).toBeNull();
    expect(byName.get('sneaky.jpg')!.error).toMatchObject({ code: 'PATH_OUTSIDE_FEED' });
    expect(byName.get('sneaky.jpg')!.error!.message).toContain('sneaky.jpg');
    expect(batch.ledger.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/gallery\/\.\.jpg: skipped, a hidden file/),
        expect.stringMatching(/gallery\/pipe\.jpg: skipped, not a regular file \(a FIFO\)/),
      ]),
    );
    await expectNothingFromOutside(rt, dataDir);
    expect((await terminate(w)).code).toBe(0);
  });

  it('the same photo dropped again with a new mtime lands on the same batch: nothing taken twice', async () => {
    const { hot, rt, spawn } = await setup();
    const w = await startWatcher(spawn, hot);
    const photo = await syntheticPhoto({ width: 500, height: 400, seed: 905 });
    const folder = path.join(path.dirname(hot), 'set');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 's1.jpg'), photo);
    writeFileSync(path.join(hot, 'again.jpg'), photo);
    renameSync(folder, path.join(hot, 'set'));
    await waitUntil(
      async () =>
        existsSync(path.join(hot, 'processed', today(), 'again.jpg')) &&
        existsSync(path.join(hot, 'processed', today(), 'set')),
      NORMAL_MS,
      'the first drops',
    );
    const first = await rt.ctx.catalog.listBatches(500);
    expect(first).toHaveLength(2);

    // The same bytes, written again an hour later (another mtime).
    const hourLater = Date.now() / 1000 + 3600;
    writeFileSync(path.join(hot, 'again.jpg'), photo);
    utimesSync(path.join(hot, 'again.jpg'), hourLater, hourLater);
    const staging = path.join(path.dirname(hot), 'set');
    mkdirSync(staging);
    writeFileSync(path.join(staging, 's1.jpg'), photo);
    utimesSync(path.join(staging, 's1.jpg'), hourLater, hourLater);
    renameSync(staging, path.join(hot, 'set'));
    await waitUntil(
      async () =>
        existsSync(path.join(hot, 'processed', today(), 'again-2.jpg')) &&
        existsSync(path.join(hot, 'processed', today(), 'set-2')),
      NORMAL_MS,
      'the re-drops',
    );

    expect((await rt.ctx.catalog.listBatches(500)).sort()).toEqual([...first].sort());
    const runs = await new RunLog(rt.redis, rt.config.prefix).list({ limit: 100 });
    expect(runs.filter((r) => r.state === 'empty').map((r) => r.note)).toEqual([
      expect.stringMatching(/the same file was taken before/),
      expect.stringMatching(/the same file was taken before/),
    ]);
    expect((await terminate(w)).code).toBe(0);
  });

  it('a scheduled folder with a -> . and b -> . and a symlink to an outside folder completes its run; SIGTERM ends the scheduler promptly', async () => {
    const { dir, dataDir, rt } = await setup();
    const src = path.join(dir, 'import');
    mkdirSync(src);
    const photo = await syntheticPhoto({ width: 500, height: 400, seed: 906 });
    writeFileSync(path.join(src, 'nightly.jpg'), photo);
    symlinkSync('.', path.join(src, 'a'));
    symlinkSync('.', path.join(src, 'b'));
    symlinkSync(outside, path.join(src, 'innocent-folder'));
    const hourAgo = Date.now() / 1000 - 3600;
    utimesSync(path.join(src, 'nightly.jpg'), hourAgo, hourAgo);
    const schedules = path.join(dir, 'schedules.json');
    writeFileSync(schedules, JSON.stringify([{ name: 'loopy', every: 600_000, source: src }]));
    const s = CliProcess.start(['scheduler', '--with-workers', '--concurrency', '2'], {
      REDIS_URL,
      PHOTOWIRE_PREFIX: rt.config.prefix,
      PHOTOWIRE_DATA_DIR: dataDir,
      PHOTOWIRE_SETTLE_MS: '300',
      PHOTOWIRE_SCHEDULES: schedules,
    });
    procs.push(s);
    const runs = new RunLog(rt.redis, rt.config.prefix);
    const run = await waitUntil(
      async () => (await runs.list({ schedule: 'loopy' })).find((r) => r.state !== 'running'),
      NORMAL_MS,
      `the scheduled run to finish (scheduler stderr:\n${s.tail()})`,
    );
    expect(run).toMatchObject({ state: 'done', ok: 1, failed: 1 });
    const records = await rt.ctx.catalog.getRecords(run.batchId!);
    const byName = new Map(records.map((r) => [path.basename(r.source.file), r]));
    expect(byName.get('nightly.jpg')!.image!.sha256).toBe(sha(photo));
    expect(byName.get('innocent-folder')!.error).toMatchObject({ code: 'PATH_OUTSIDE_FEED' });
    expect((await rt.ctx.catalog.getBatch(run.batchId!))!.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/import\/a: skipped, a symlinked folder/),
        expect.stringMatching(/import\/b: skipped, a symlinked folder/),
      ]),
    );
    await expectNothingFromOutside(rt, dataDir);
    const { ms, code } = await terminate(s);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(scaledMs(PROMPT_EXIT_MS));
  });
});
