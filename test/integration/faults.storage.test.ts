import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import type { CatalogRecord } from '../../src/schemas/record';
import { runCli } from '../helpers/cli';
import { photoVariants } from '../helpers/corpus';
import { expectBatchWhole } from '../helpers/integrity';
import { type CliProcess, startReadyWorker, waitUntil } from '../helpers/processes';
import { REDIS_URL, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * The data directory cannot be written: items fail with STORAGE_FAILED after their retries, the
 * batch still ends (no one waits forever), and `photowire retry` makes them succeed once the disk
 * is fixed. Two ways in: a target that cannot be created (tests run as root, where chmod does not
 * stop writes, so data/tmp is made a plain file), and a real full disk (a 256 KB tmpfs, where
 * mounting is allowed).
 */
jest.setTimeout(scaledMs(120_000));

const canMount = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = makeTmpDir('mount-probe');
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]).status === 0;
  if (ok) spawnSync('umount', [probe]);
  removeDir(probe);
  return ok;
})();

describe('data directory not writable', () => {
  const root = makeTmpDir('storage');
  const procs: CliProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    for (const c of cleanups.reverse()) await c();
    removeDir(root);
  });

  async function setup(name: string, dataDir: string) {
    const prefix = uniquePrefix('storage');
    const env = {
      REDIS_URL,
      PHOTOWIRE_PREFIX: prefix,
      PHOTOWIRE_DATA_DIR: dataDir,
      PHOTOWIRE_ATTEMPTS: '2',
      LOG_LEVEL: 'warn',
    };
    const rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
    cleanups.push(async () => {
      await rt.close();
      await deletePrefix(prefix);
    });
    const feed = path.join(root, `${name}-feed`);
    mkdirSync(feed);
    const photos = await photoVariants(3, 1600, 1200, name.length);
    photos.forEach((p, i) => writeFileSync(path.join(feed, `photo-${i}.jpg`), p));
    const worker = await startReadyWorker(env, 2);
    procs.push(worker);
    const [o] = await ingestPaths(rt, [feed]);
    const batchId = o.batchId!;
    await waitUntil(async () => (await rt.ctx.catalog.getBatch(batchId))?.state === 'done', 60_000, 'the batch to end');
    return { env, rt, batchId };
  }

  /** What an operator sees, through the CLI, for a batch whose items could not be stored. */
  async function expectStorageFailures(env: Record<string, string>, batchId: string, reason: RegExp) {
    const failed = await runCli(['failed', '--batch', batchId, '--json'], env);
    expect(failed.code).toBe(0);
    const list = JSON.parse(failed.stdout) as Array<{
      itemId: string;
      code: string;
      message: string;
      attempts: number;
      source: string;
    }>;
    expect(list.map((f) => [f.code, f.attempts])).toEqual([
      ['STORAGE_FAILED', 2],
      ['STORAGE_FAILED', 2],
      ['STORAGE_FAILED', 2],
    ]);
    for (const f of list) expect(f.message).toMatch(reason);
    expect(list.map((f) => path.basename(f.source))).toEqual(['photo-0.jpg', 'photo-1.jpg', 'photo-2.jpg']);

    const text = await runCli(['failed', '--batch', batchId], env);
    expect(text.stdout).toContain(`${batchId}-0001  STORAGE_FAILED  2 attempts`);

    const status = await runCli(['status', batchId, '--json'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'done', ok: 0, failed: 3 });
  }

  /** Retry through the CLI (a worker is running) and check the batch is now whole, files included. */
  async function retryAndCheck(env: Record<string, string>, rt: Runtime, batchId: string) {
    const retried = await runCli(['retry', batchId, '--wait', '--json'], env);
    expect(retried.code).toBe(0);
    const out = JSON.parse(retried.stdout);
    expect(out.retried).toHaveLength(3);
    expect(out.batch).toMatchObject({ state: 'done', ok: 3, failed: 0, failures: [] });
    expect(out.batch.warnings).toEqual([]);
    await expectBatchWhole(rt, batchId, { items: 3, ok: 3 });
    const exported = readFileSync(path.join(rt.config.dataDir, 'batches', batchId, 'records.ndjson'), 'utf8')
      .trim()
      .split('\n');
    expect(exported.map((l) => (JSON.parse(l) as CatalogRecord).error)).toEqual([null, null, null]);
    expect(JSON.parse((await runCli(['failed', '--batch', batchId, '--json'], env)).stdout)).toEqual([]);
    // A second retry finds nothing to do and changes nothing.
    const again = JSON.parse((await runCli(['retry', batchId, '--json'], env)).stdout);
    expect(again).toMatchObject({ retried: [], pending: [], skipped: [] });
    expect(await rt.ctx.catalog.getBatch(batchId)).toMatchObject({ ok: 3, failed: 0, state: 'done' });
  }

  it('a target that cannot be created: STORAGE_FAILED after retries, the batch ends, retry succeeds once fixed', async () => {
    const dataDir = path.join(root, 'blocked-data');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'tmp'), 'where photowire wants a folder, a file');
    const { env, rt, batchId } = await setup('blocked', dataDir);

    await expectStorageFailures(env, batchId, /cannot write .*(ENOTDIR|EEXIST)/);
    // records.ndjson could not be written either: the batch is over, and it says so.
    expect(existsSync(path.join(dataDir, 'batches', batchId, 'records.ndjson'))).toBe(false);
    const status = JSON.parse((await runCli(['status', batchId, '--json'], env)).stdout);
    expect(status.warnings.join('\n')).toMatch(/STORAGE_FAILED: records\.ndjson could not be written/);
    // export still has every record, from Redis.
    const exported = await runCli(['export', batchId], env);
    expect(
      exported.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as CatalogRecord).error?.code),
    ).toEqual(['STORAGE_FAILED', 'STORAGE_FAILED', 'STORAGE_FAILED']);

    rmSync(path.join(dataDir, 'tmp'));
    await retryAndCheck(env, rt, batchId);
  });

  (canMount ? it : it.skip)(
    'a full disk (256 KB tmpfs): STORAGE_FAILED with ENOSPC, retry succeeds once there is room',
    async () => {
      const dataDir = path.join(root, 'full-data');
      mkdirSync(dataDir);
      expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dataDir]).status).toBe(0);
      cleanups.push(async () => {
        spawnSync('umount', ['-l', dataDir]);
      });
      const { env, rt, batchId } = await setup('full', dataDir);

      await expectStorageFailures(env, batchId, /ENOSPC/);
      // Each failed write removed its temp file: the little room left is not eaten by debris.
      expect(existsSync(path.join(dataDir, 'tmp')) ? readdirSync(path.join(dataDir, 'tmp')) : []).toEqual([]);

      expect(spawnSync('mount', ['-o', 'remount,size=64m', dataDir]).status).toBe(0);
      await retryAndCheck(env, rt, batchId);
    },
  );
});
