import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { dayFolder } from '../../src/app/hotFolder/destination';
import { CliProcess, waitUntil } from '../helpers/processes';
import { REDIS_URL, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 17, "A marker must not override an unfinished upload", with a real `photowire watch`
 * process: `gallery/` holding `cp.jpg.part` with `gallery.done` written beside it. Before the fix
 * the marker won: the half-written `.part` became a catalog record and the folder moved to
 * processed/, so the sender's final rename failed.
 */
jest.setTimeout(scaledMs(120_000));

const NORMAL_MS = 20_000;

describe('a hot folder: a marked folder that still holds a temp-named file (real watch process)', () => {
  const root = makeTmpDir('partials');
  const prefix = uniquePrefix('part');
  let rt: Runtime;
  let w: CliProcess | null = null;

  afterAll(async () => {
    await w?.stop();
    await rt?.close();
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('waits for the .part to be renamed, never makes it an item, then takes the folder whole', async () => {
    const hot = path.join(root, 'hot');
    mkdirSync(hot);
    const env = {
      REDIS_URL,
      PHOTOWIRE_PREFIX: prefix,
      PHOTOWIRE_DATA_DIR: path.join(root, 'data'),
      PHOTOWIRE_SETTLE_MS: '300',
    };
    rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
    w = CliProcess.start(
      ['watch', hot, '--with-workers', '--concurrency', '2', '--settle-ms', '300', '--scan-ms', '200'],
      env,
    );
    await w.waitForLogs((l) => l.msg === 'watching hot folders', 1, 20_000, '"watching hot folders"');

    // The sender has uploaded a.jpg, is half-way through cp.jpg (under its temp name), and has already written the marker.
    // Both photos are made first: on a busy machine making one takes longer than the settle time,
    // and a folder holding only a.jpg for that long is complete by the rules.
    const a = await syntheticPhoto({ width: 400, height: 300, seed: 1701 });
    const cp = await syntheticPhoto({ width: 640, height: 480, seed: 1702 });
    const staging = path.join(root, 'staging-gallery');
    mkdirSync(staging);
    writeFileSync(path.join(staging, 'a.jpg'), a);
    const stagedPart = path.join(staging, 'cp.jpg.part');
    writeFileSync(stagedPart, cp.subarray(0, Math.floor(cp.length / 2)));
    // The folder appears with both files at once (a rename), then the marker.
    const gallery = path.join(hot, 'gallery');
    renameSync(staging, gallery);
    const part = path.join(gallery, 'cp.jpg.part');
    writeFileSync(path.join(hot, 'gallery.done'), '');

    // Many scans and settle times later: nothing taken, the folder and its marker still in place.
    await sleep(4000);
    expect(await rt.ctx.catalog.listBatches(50)).toEqual([]);
    expect(existsSync(gallery)).toBe(true);
    expect(existsSync(path.join(hot, 'gallery.done'))).toBe(true);
    expect(existsSync(path.join(hot, 'processed', dayFolder(new Date()), 'gallery'))).toBe(false);

    // The upload ends and the sender renames: the rename must succeed and the folder is taken whole.
    appendFileSync(part, cp.subarray(Math.floor(cp.length / 2)));
    renameSync(part, path.join(gallery, 'cp.jpg'));
    const moved = path.join(hot, 'processed', dayFolder(new Date()), 'gallery');
    await waitUntil(
      async () => existsSync(moved),
      NORMAL_MS,
      `gallery/ to reach processed/ (watcher stderr:\n${w.tail()})`,
    );
    expect(readdirSync(moved).sort()).toEqual(['a.jpg', 'cp.jpg']);
    const [batchId] = await rt.ctx.catalog.listBatches(50);
    expect(await rt.ctx.catalog.listBatches(50)).toHaveLength(1);
    expect(await rt.ctx.catalog.getBatch(batchId)).toMatchObject({ expected: 2, ok: 2, failed: 0, state: 'done' });
    const records = await rt.ctx.catalog.getRecords(batchId);
    expect(records.map((r) => [path.basename(r.source.file), r.error]).sort()).toEqual([
      ['a.jpg', null],
      ['cp.jpg', null],
    ]);
  });
});
