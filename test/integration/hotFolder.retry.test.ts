import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { runCli } from '../helpers/cli';
import { CliProcess } from '../helpers/processes';
import { makeTmpDir, pipelineEnv, removeDir } from '../helpers/testEnv';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { dayFolder } from '../../src/app/hotFolder/destination';
import { batchDetailSchema } from '../../src/schemas/api';
import { scaledMs } from '../helpers/deadline';

/**
 * A hot folder moves a drop to processed/<day>/ once its batch is done. Its failed items must
 * still be retryable: the retry reads each item where the watcher moved it (so a corrected photo
 * put in processed/... is what it reads), `failed` prints that place, and the desk offers a retry
 * only while the photo is there to read. A real `photowire watch` process, real files.
 */
jest.setTimeout(scaledMs(180_000));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('retrying the failed items of a hot-folder batch (real watcher process, real drop)', () => {
  let desk: Desk;
  let root: string;
  let hot: string;
  let env: Record<string, string | undefined>;
  const procs: CliProcess[] = [];

  beforeAll(async () => {
    // The desk's pipeline has no workers of its own: the watcher process runs them.
    desk = await startDesk({ workers: false });
    root = makeTmpDir('hot-retry');
    hot = path.join(root, 'hot');
    mkdirSync(hot);
    env = pipelineEnv(desk.p.config.prefix, desk.p.config.dataDir);
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await desk?.close();
    removeDir(root);
  });

  async function startWatcher(): Promise<CliProcess> {
    // The manifest naming a photo that never comes waits for it only briefly (PHOTOWIRE_PAIR_WAIT).
    const w = CliProcess.start(
      ['watch', hot, '--with-workers', '--concurrency', '2', '--settle-ms', '300', '--scan-ms', '200'],
      { ...env, PHOTOWIRE_PAIR_WAIT: '2s' },
    );
    procs.push(w);
    await w.waitForLogs((l) => l.msg === 'watching hot folders', 1, 60_000, '"watching hot folders"');
    return w;
  }

  /** The watcher's "batch done, file moved" line for a dropped entry: the event a take ends with. */
  async function taken(w: CliProcess, name: string): Promise<{ batchId: string; movedTo: string }> {
    const [line] = await w.waitForLogs(
      (l) => l.msg === 'hot folder: batch done, file moved' && l.file === name,
      1,
      120_000,
      `${name} taken and moved`,
    );
    return { batchId: String(line.batchId), movedTo: String(line.movedTo) };
  }

  const detail = async (batchId: string) =>
    batchDetailSchema.parse(await (await desk.fetch(`/api/batches/${batchId}`)).json());

  it('a dropped folder with an empty photo: failed shows where it is now, the desk offers a retry only while the photo is there, and a corrected file in processed/ retries ok', async () => {
    const w = await startWatcher();
    const good = await syntheticPhoto({ width: 500, height: 400, seed: 3101 });
    const staging = path.join(root, 'night2');
    mkdirSync(staging);
    writeFileSync(path.join(staging, 'good.jpg'), good);
    writeFileSync(path.join(staging, 'empty.jpg'), Buffer.alloc(0));
    renameSync(staging, path.join(hot, 'night2'));

    const { batchId, movedTo } = await taken(w, 'night2');
    expect(movedTo).toBe(path.join(hot, 'processed', dayFolder(new Date()), 'night2'));
    expect(existsSync(path.join(hot, 'night2'))).toBe(false);
    const emptyNow = path.join(movedTo, 'empty.jpg');
    expect(await desk.p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', ok: 1, failed: 1 });

    // `failed` names the file where it is now, and where it was dropped.
    const listed = await runCli(['failed', '--batch', batchId], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(
      `IMAGE_CORRUPT  1 attempt  ${emptyNow}  (dropped as ${path.join(hot, 'night2', 'empty.jpg')})`,
    );
    const listedJson = JSON.parse((await runCli(['failed', '--batch', batchId, '--json'], env)).stdout);
    expect(listedJson).toEqual([
      expect.objectContaining({
        code: 'IMAGE_CORRUPT',
        source: emptyNow,
        movedFrom: path.join(hot, 'night2', 'empty.jpg'),
        retryable: true,
      }),
    ]);

    // The desk: the photo is there (still empty): a retry can read it, so it is offered.
    let d = await detail(batchId);
    expect(d.failures).toEqual([expect.objectContaining({ source: emptyNow, retryable: true })]);
    // Gone from processed/: a retry could only fail IMAGE_NOT_FOUND again, so it is not offered, and the desk says where the photo goes.
    rmSync(emptyNow);
    d = await detail(batchId);
    expect(d.failures).toEqual([
      expect.objectContaining({
        retryable: false,
        retryNote: `no photo at ${emptyNow} (where a retry reads it): put the photo there, then retry`,
      }),
    ]);

    // The corrected photo, put back where the drop is now, is what the retry reads.
    const corrected = await syntheticPhoto({ width: 640, height: 480, seed: 3102 });
    writeFileSync(emptyNow, corrected);
    d = await detail(batchId);
    expect(d.failures).toEqual([expect.objectContaining({ retryable: true })]);
    const retried = await runCli(['retry', batchId, '--wait'], env);
    expect({ code: retried.code, stderr: retried.code === 0 ? '' : retried.stderr }).toEqual({ code: 0, stderr: '' });
    expect(retried.stdout).toContain('2 items: 2 ok, 0 failed');

    const records = await desk.p.rt.ctx.catalog.getRecords(batchId);
    const fixed = records.find((r) => r.source.file.endsWith('empty.jpg'))!;
    expect(fixed.error).toBeNull();
    expect(fixed.image!.sha256).toBe(sha(corrected));
    expect(fixed.source.file).toBe(emptyNow);
    expect(await desk.p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', ok: 2, failed: 0 });
    expect((await runCli(['failed', '--batch', batchId], env)).stdout).toBe(`batch ${batchId}: no failed items\n`);
    expect((await detail(batchId)).failures).toEqual([]);
    // Nothing was taken again: the corrected file stays in processed/.
    expect(readFileSync(emptyNow).equals(corrected)).toBe(true);
  });

  it('a CSV manifest beside its photos, one photo missing: the retry reads it beside the moved manifest once it is put there', async () => {
    const w = procs[0]?.alive ? procs[0] : await startWatcher();
    const present = await syntheticPhoto({ width: 400, height: 300, seed: 3103 });
    const staging = path.join(root, 'stage-csv');
    mkdirSync(staging);
    writeFileSync(path.join(staging, 'a.jpg'), present);
    writeFileSync(
      path.join(staging, 'wire.csv'),
      'file,caption\na.jpg,First photo of the set\nlate.jpg,The photo the sender forgot\n',
    );
    // Photo first, then the manifest: the manifest holds its photo back until it is taken with it.
    renameSync(path.join(staging, 'a.jpg'), path.join(hot, 'a.jpg'));
    renameSync(path.join(staging, 'wire.csv'), path.join(hot, 'wire.csv'));

    const { batchId, movedTo } = await taken(w, 'wire.csv');
    const dayDir = path.dirname(movedTo);
    expect(existsSync(path.join(dayDir, 'a.jpg'))).toBe(true);
    const failed = await desk.p.rt.ctx.catalog.getFailed(batchId);
    expect(failed).toEqual([
      expect.objectContaining({
        code: 'PICTURE_MISSING',
        message: expect.stringContaining(
          `its picture ${path.join(hot, 'late.jpg')} did not arrive in the hot folder within PHOTOWIRE_PAIR_WAIT`,
        ),
      }),
    ]);

    const lateNow = path.join(dayDir, 'late.jpg');
    const listed = JSON.parse((await runCli(['failed', '--batch', batchId, '--json'], env)).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ source: `${movedTo}:3`, movedFrom: `${path.join(hot, 'wire.csv')}:3` }),
    ]);
    expect((await detail(batchId)).failures).toEqual([
      expect.objectContaining({
        retryable: false,
        retryNote: `no photo at ${lateNow} (where a retry reads it): put the photo there, then retry`,
      }),
    ]);

    const late = await syntheticPhoto({ width: 400, height: 300, seed: 3104 });
    writeFileSync(lateNow, late);
    expect((await detail(batchId)).failures).toEqual([expect.objectContaining({ retryable: true })]);
    const retried = await runCli(['retry', batchId, '--wait'], env);
    expect({ code: retried.code, stderr: retried.code === 0 ? '' : retried.stderr }).toEqual({ code: 0, stderr: '' });
    const record = (await desk.p.rt.ctx.catalog.getRecords(batchId))[1];
    expect(record.error).toBeNull();
    expect(record.image!.sha256).toBe(sha(late));
  });
});
