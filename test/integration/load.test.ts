import { QueueEvents } from 'bullmq';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { QUEUES, queuePrefix } from '../../src/queues/definitions';
import { photoVariants } from '../helpers/corpus';
import { expectBatchWhole } from '../helpers/integrity';
import { type CliProcess, startReadyWorker, waitDoneWithPeakRss } from '../helpers/processes';
import { REDIS_URL, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';
import { prefixPatterns } from '../../src/adapters/redis/keys';
import { scanKeys } from '../../src/adapters/redis/scan';

/**
 * A 10,000-item batch (LOAD_ITEMS=n for another size) (200 distinct generated JPEGs, each named by 50 manifest lines, with varied
 * captions) through one real worker process running 4 items at a time. It must finish with no
 * stalled job, every record once, and bounded memory: the worker's peak RSS and the batch's Redis
 * memory are measured and printed (docs/RELIABILITY.md keeps the figures).
 */
const ITEMS = Number(process.env.LOAD_ITEMS ?? 10_000);
const PHOTOS = 200;
jest.setTimeout(scaledMs(300_000));

const PLACES = [
  'Leeds',
  'Lyon',
  'Porto',
  'Gdansk',
  'Bilbao',
  'Turin',
  'Ghent',
  'Tampere',
  'Brno',
  'Cork',
  'Split',
  'Malmo',
];
const SCENES = [
  'Commuters wait on a crowded platform as strike action halts trains in',
  'Firefighters damp down the remains of a warehouse fire in',
  'Supporters celebrate in the main square after the cup final in',
  'Volunteers hand out food parcels at a community centre in',
  'Cyclists ride through heavy rain during a charity race in',
  'Market traders set up their stalls before dawn in',
  'Students march against tuition fees through the old town of',
  'A tram passes the cathedral under the first snow of winter in',
];

/** Captions with real variety: 96 scene/place pairs, a date and a running number, some repeated verbatim. */
function caption(i: number): string {
  const scene = SCENES[i % SCENES.length];
  const place = PLACES[Math.floor(i / SCENES.length) % PLACES.length];
  const day = 1 + (i % 28);
  // Every fifth item repeats an earlier caption exactly (a re-send); the others carry their own photo number.
  const n = i % 5 === 0 ? 0 : i;
  return `${scene} ${place} on ${day} November 2026. Picture ${n}. PHOTO: STAFF/PW`;
}

describe(`a ${ITEMS.toLocaleString('en')}-item batch with 4 concurrent items`, () => {
  const prefix = uniquePrefix('load');
  const root = makeTmpDir('load');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: path.join(root, 'data') };
  let rt: Runtime;
  let worker: CliProcess;
  let events: QueueEvents;
  const stalled: string[] = [];

  beforeAll(async () => {
    const feed = path.join(root, 'feed');
    mkdirSync(feed);
    const photos = await photoVariants(PHOTOS, 640, 427, 11);
    photos.forEach((jpeg, i) => writeFileSync(path.join(feed, `p${String(i).padStart(3, '0')}.jpg`), jpeg));
    const lines = Array.from({ length: ITEMS }, (_, i) =>
      JSON.stringify({
        id: `L${i}`,
        caption: caption(i),
        image: `p${String(i % PHOTOS).padStart(3, '0')}.jpg`,
        byline: 'Staff',
      }),
    );
    writeFileSync(path.join(feed, 'night.ndjson'), lines.join('\n') + '\n');
    rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
    events = new QueueEvents(QUEUES.item, { connection: { url: REDIS_URL }, prefix: queuePrefix(prefix) });
    events.on('stalled', ({ jobId }) => stalled.push(jobId));
    await events.waitUntilReady();
    worker = await startReadyWorker({ ...env, LOG_LEVEL: 'warn' }, 4);
  });
  afterAll(async () => {
    await worker?.stop();
    await events?.close();
    await rt?.close();
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('finishes with no stalled job, every record once, and bounded memory', async () => {
    const started = Date.now();
    const [o] = await ingestPaths(rt, [path.join(root, 'feed', 'night.ndjson')]);
    expect(o.expected).toBe(ITEMS);
    const enqueuedMs = Date.now() - started;
    // The worker's peak RSS is read from /proc while it runs (the poll keeps it fresh).
    const peakKb = await waitDoneWithPeakRss(
      worker,
      async (id) => (await rt.ctx.catalog.getBatch(id))?.state,
      [o.batchId!],
      { everyMs: 1000 },
    );
    const tookMs = Date.now() - started;
    const peakRssMb = Math.round(Math.max(peakKb, worker.peakRssKb() ?? 0) / 1024);

    expect(stalled).toEqual([]);
    expect(worker.logs.filter((l) => (l.level ?? 0) >= 50)).toEqual([]);
    const { records } = await expectBatchWhole(rt, o.batchId!, { items: ITEMS, ok: ITEMS });
    expect(new Set(records.map((r) => r.image!.sha256)).size).toBe(PHOTOS);
    // Every re-sent caption landed in the cluster of its first sending, whichever of the 4 slots took it.
    const clusterOfCaption = new Map<string, Set<string>>();
    for (const r of records)
      clusterOfCaption.set(r.captionRaw, (clusterOfCaption.get(r.captionRaw) ?? new Set()).add(r.cluster!.id));
    expect(clusterOfCaption.size).toBeLessThan(ITEMS);
    expect([...clusterOfCaption.values()].filter((ids) => ids.size > 1)).toEqual([]);

    // Redis: what this batch keeps (jobs kept for a week, records, ledger, caption index).
    // Every key of the prefix in both layouts (src/adapters/redis/keys.ts prefixPatterns).
    const allKeys = [...new Set((await Promise.all(prefixPatterns(prefix).map((p) => scanKeys(rt.redis, p)))).flat())];
    let bytes = 0;
    for (let i = 0; i < allKeys.length; i += 2000) {
      const pipe = rt.redis.pipeline();
      for (const k of allKeys.slice(i, i + 2000)) pipe.memory('USAGE', k, 'SAMPLES', '0');
      for (const [, v] of (await pipe.exec()) ?? []) bytes += Number(v ?? 0);
    }
    const keys = allKeys.length;
    // The measure is real: a record holds a caption, credit and image facts, so well over 200 bytes
    // an item (a scan pattern that missed the key layout found none and passed the bound below).
    expect(bytes / ITEMS).toBeGreaterThan(200);
    const redisMb = Math.round(bytes / 1048576);

    const report = {
      items: ITEMS,
      photos: PHOTOS,
      concurrency: 4,
      enqueuedMs,
      tookMs,
      itemsPerSecond: Math.round(ITEMS / (tookMs / 1000)),
      workerPeakRssMb: peakRssMb,
      redisKeys: keys,
      redisMb,
      redisBytesPerItem: Math.round(bytes / ITEMS),
    };
    console.log(`load: ${JSON.stringify(report)}`);
    // The worker holds a few photos at a time and reads records in chunks, never the batch: its peak
    // does not grow with the batch (299 MB at 10,000 and at 30,000 items, LOAD_ITEMS=30000, on Node 20).
    // On Node 24 it holds under the same bound with the launcher's V8 flags (bin/photowire.js):
    // 233-259 MB, against 559-606 MB without them (docs/BENCHMARKS.md, "Worker memory").
    expect(peakRssMb).toBeLessThan(400);
    // Measured 10.6 KB an item (2026-12-05): the batch's records 3.6 KB, the completed item jobs BullMQ
    // keeps for a week 2.0 KB, the kill index 2.3 KB (its member and item maps), the story and
    // cluster indexes 0.6 KB, renditions, facets and photo references the rest. The bound catches growth.
    expect(bytes / ITEMS).toBeLessThan(12 * 1024);
  });
});
