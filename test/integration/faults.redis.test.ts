import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import { photoVariants } from '../helpers/corpus';
import { expectBatchWhole } from '../helpers/integrity';
import { type CliProcess, PersistentRedis, startReadyWorker, waitUntil } from '../helpers/processes';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Redis killed (SIGKILL, not a clean shutdown) in the middle of a batch and started again on the
 * same port and folder, with AOF persistence as docker-compose runs it. The worker processes keep
 * running, reconnect, and the batch completes with every item once.
 */
jest.setTimeout(scaledMs(180_000));

describe('Redis restarted mid-batch', () => {
  const root = makeTmpDir('redis-restart');
  const dataDir = path.join(root, 'data');
  const feed = path.join(root, 'feed');
  let redis: PersistentRedis;
  let rt: Runtime;
  const procs: CliProcess[] = [];

  beforeAll(async () => {
    redis = await PersistentRedis.start(path.join(root, 'redis'));
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await rt?.close();
    await redis.stop();
    removeDir(root);
  });

  it('workers reconnect and the batch completes, every item once', async () => {
    const env = {
      REDIS_URL: redis.url,
      PHOTOWIRE_PREFIX: 'pwtest-restart',
      PHOTOWIRE_DATA_DIR: dataDir,
      PHOTOWIRE_LOCK_MS: '3000',
    };
    mkdirSync(feed);
    const photos = await photoVariants(40, 2000, 1400, 7);
    photos.forEach((jpeg, i) => {
      const caption = `Item ${i % 10}: commuters wait for a delayed train at Leeds station during the rail strike on Thursday.`;
      writeFileSync(
        path.join(feed, `p-${String(i).padStart(2, '0')}.jpg`),
        insertIptcIntoJpeg(jpeg, buildIimBlock({ caption, byline: ['JON SUPER'], credit: 'AP' }, { utf8: true })),
      );
    });
    rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
    const workers = [await startReadyWorker(env, 2), await startReadyWorker(env, 2)];
    procs.push(...workers);
    const [o] = await ingestPaths(rt, [feed]);
    const batchId = o.batchId!;

    await waitUntil(async () => ((await rt.ctx.catalog.getBatch(batchId))?.ok ?? 0) >= 8, 60_000, 'eight items done');
    const before = (await rt.ctx.catalog.getBatch(batchId))!;
    expect(before.ok).toBeLessThan(40);
    await redis.restart(2000);

    await waitUntil(
      async () => (await rt.ctx.catalog.getBatch(batchId))?.state === 'done',
      120_000,
      'the batch to finish after the restart',
    );
    await expectBatchWhole(rt, batchId, { items: 40, ok: 40 });
    // The same worker processes carried on: none died with Redis.
    for (const w of workers) expect(w.alive).toBe(true);
    const after = workers.flatMap((w) => w.itemsDone());
    expect(after.length).toBeGreaterThanOrEqual(40 - before.ok);
    // They saw the outage (and said so) rather than missing it.
    expect(workers.some((w) => w.logs.some((l) => l.level !== undefined && l.level >= 50))).toBe(true);
  });
});
