import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDesk, type Desk } from '../helpers/deskServer';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { SHARED_DIR } from '../helpers/sharedDir';
import { scaledMs } from '../helpers/deadline';
import { Watcher, type TakeResult } from '../../src/sources/hotFolder/watcher';
import type { CatalogRecord } from '../../src/schemas/record';
import { Scheduler } from '../../src/app/jobs/scheduler';
import { createRedis } from '../../src/adapters/redis/connection';
import { RunLog } from '../../src/adapters/redis/runLog';
import { PairWaits } from '../../src/adapters/redis/pairWaits';

/**
 * Issue 28, item 1: an agency's delivery folder (one NewsML-G2 file per item, its picture beside
 * it) is one feed, read the same by `run`/`ingest`, a hot folder and a desk upload. Real dpa and
 * Reuters deliveries (test/fixtures/shared/fixtures/real-wire/MANIFEST.txt names their origin), a
 * real picture no item names (node-iptc's test4.jpeg) and a README beside them; real Redis, real
 * workers, real renditions. Before, `run` on this folder made four bare records (the dpa JPEG and
 * Reuters' three renditions) with no caption, and skipped both XML files as "not an image".
 */
jest.setTimeout(scaledMs(240_000));

const WIRE = path.join(SHARED_DIR, 'fixtures/real-wire');
const DPA_XML = path.join(WIRE, 'dpa/urn_newsml_dpa.com_20090101_171117-90-000086.xml');
const DPA_JPEG = path.join(WIRE, 'dpa/urn_binary_dpa_com_20090101_171117-90-000086-FILED.jpeg');
const REUTERS = path.join(WIRE, 'reuters');
const REUTERS_XML = path.join(REUTERS, 'tag_reuters.com_0000_newsml_GM1EA7M13RP01_version_484616934');
const REUTERS_BASE = path.join(REUTERS, 'tag_reuters.com_0000_binary_GM1EA7M13RP01-BASEIMAGE');
const LONE = path.join(WIRE, 'images/nodeiptc-test4.jpeg');

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const DELIVERY = [DPA_XML, DPA_JPEG, ...readdirSync(REUTERS).map((n) => path.join(REUTERS, n)), LONE];

/** What a desk user sees of a record, whatever way the delivery came in (paths and batch ids differ). */
function seen(r: CatalogRecord) {
  return {
    agencyId: r.agencyId,
    caption: r.caption,
    headline: r.headline,
    creators: r.credit.creators,
    city: r.location?.city ?? null,
    picture: r.image?.sha256 ?? null,
    error: r.error?.code ?? null,
  };
}
const byPicture = (a: { picture: string | null }, b: { picture: string | null }) =>
  String(a.picture).localeCompare(String(b.picture));

async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  idleMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + scaledMs(idleMs);
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('an agency delivery folder read whole (real dpa and Reuters deliveries, real Redis)', () => {
  let desk: Desk;
  let root: string;
  let expected: ReturnType<typeof seen>[];
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    desk = await startDesk();
    root = makeTmpDir('delivery');
  });
  afterEach(async () => {
    await Promise.all(watchers.splice(0).map((w) => w.stop()));
  });
  afterAll(async () => {
    await desk?.close();
    removeDir(root);
  });

  it('run/ingest: each item takes the picture it names (every rendition), an unnamed picture is its own record, the README is named in the summary', async () => {
    const dir = path.join(root, 'run');
    mkdirSync(dir);
    for (const f of DELIVERY) copyFileSync(f, path.join(dir, path.basename(f)));
    writeFileSync(path.join(dir, 'README.txt'), 'Delivery of 2009-01-01.\n');
    const [o] = await desk.p.ingest([dir]);
    expect(o.error).toBeNull();
    const records = await desk.p.rt.ctx.catalog.getRecords(o.batchId!);
    const got = records.map(seen).sort(byPicture);
    expect(got).toHaveLength(3);
    const dpa = got.find((r) => r.picture === sha(DPA_JPEG))!;
    expect(dpa).toMatchObject({ agencyId: 'urn:newsml:dpa.com:20090101:171117-90-000086', error: null });
    expect(dpa.caption).toMatch(/^Florian David Fitz kommt am 16\.11\.2017/);
    const reuters = got.find((r) => r.picture === sha(REUTERS_BASE))!;
    expect(reuters).toMatchObject({ agencyId: 'tag_reuters.com_0000_newsml_GM1EA7M13RP01', error: null });
    expect(reuters.caption).toMatch(/^Cast member Vin Diesel arrives at the premiere/);
    expect(got.find((r) => r.picture === sha(LONE))).toMatchObject({ agencyId: null, error: null });
    // The Reuters view image and thumbnail are renditions the item names: never records of their own.
    for (const n of ['VIEWIMAGE', 'THUMBNAIL'])
      expect(got.map((r) => r.picture)).not.toContain(
        sha(path.join(REUTERS, `tag_reuters.com_0000_binary_GM1EA7M13RP01-${n}`)),
      );
    const summary = (await desk.p.rt.ingest.summarize([o.batchId!]))[0]!;
    expect(summary).toMatchObject({ items: 3, ok: 3, failed: 0, skipped: { file: 1 } });
    expect(summary.warnings).toContain(
      `${path.join(dir, 'README.txt')}: skipped, not a picture or a feed photowire reads`,
    );
    expected = got;
  });

  it('a desk upload of the same files gives the same records', async () => {
    const fd = new FormData();
    for (const f of DELIVERY) fd.append('file', new Blob([readFileSync(f)]), path.basename(f));
    const res = await desk.fetch('/api/feeds', { method: 'POST', body: fd });
    expect(res.status).toBe(202);
    const { feeds } = (await res.json()) as { feeds: Array<{ batchId: string | null; error: unknown }> };
    expect(feeds).toEqual([expect.objectContaining({ error: null })]);
    const batchId = feeds[0]!.batchId!;
    await waitFor('the upload batch', async () => (await desk.p.rt.ctx.catalog.getBatch(batchId))?.state === 'done');
    const records = await desk.p.rt.ctx.catalog.getRecords(batchId);
    expect(records.map(seen).sort(byPicture)).toEqual(expected);
  });

  it('watch: the same files dropped one by one into a hot folder give the same records, each item with its picture', async () => {
    const hot = path.join(root, 'hot');
    const staging = path.join(root, 'staging');
    mkdirSync(hot);
    mkdirSync(staging);
    const w = new Watcher(desk.p.rt, { dirs: [hot], settleMs: 300, scanMs: 100, fsWatch: false, pairWaitMs: 20_000 });
    watchers.push(w);
    const taken: TakeResult[] = [];
    w.on('taken', (t: TakeResult) => taken.push(t));
    await w.start();
    // XML first for dpa, pictures first for Reuters; each file arrives complete (renamed into place).
    for (const f of [
      DPA_XML,
      ...readdirSync(REUTERS)
        .filter((n) => n.includes('binary'))
        .map((n) => path.join(REUTERS, n)),
      DPA_JPEG,
      REUTERS_XML,
      LONE,
    ]) {
      copyFileSync(f, path.join(staging, path.basename(f)));
      renameSync(path.join(staging, path.basename(f)), path.join(hot, path.basename(f)));
      await sleep(150);
    }
    await waitFor(
      'the three entries taken',
      () => taken.length >= 3 && taken.every((t) => t.outcome === 'processed'),
      120_000,
    );
    expect(taken.map((t) => t.name).sort()).toEqual(
      [path.basename(LONE), path.basename(REUTERS_XML), path.basename(DPA_XML)].sort(),
    );
    const records = (await Promise.all(taken.map((t) => desk.p.rt.ctx.catalog.getRecords(t.batchId!)))).flat();
    expect(records.map(seen).sort(byPicture)).toEqual(expected);
    expect(readdirSync(hot)).toEqual(['processed']);
  });

  it('a schedule on the delivery folder takes its new files as the same records', async () => {
    const src = path.join(root, 'scheduled');
    mkdirSync(src);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const f of DELIVERY) {
      copyFileSync(f, path.join(src, path.basename(f)));
      utimesSync(path.join(src, path.basename(f)), hourAgo, hourAgo); // complete: older than PHOTOWIRE_SETTLE_MS
    }
    const s = new Scheduler(desk.p.rt, { lockTtlMs: 5000 });
    try {
      await s.upsert({ name: 'delivery', every: 60_000, source: src });
      await s.startWorker(createRedis(desk.p.rt.redisHandle.url, { forWorker: true, name: 'test-delivery-scheduler' }));
      const runs = new RunLog(desk.p.rt.redis, desk.p.config.prefix);
      const run = await waitFor(
        'the scheduled run',
        async () => (await runs.list({ schedule: 'delivery', limit: 10 })).find((r) => r.state === 'done' && r.batchId),
        120_000,
      );
      const records = await desk.p.rt.ctx.catalog.getRecords(run.batchId!);
      expect(records.map(seen).sort(byPicture)).toEqual(expected);
    } finally {
      await s.close();
    }
  });

  it('pair waits in Redis: the first sighting sets since when, a restarted watcher (a new client) reads it back, a take clears it', async () => {
    const dir = path.join(root, 'pairs-hot');
    const first = new PairWaits(desk.p.rt.redis, desk.p.config.prefix);
    expect(await first.since(dir, 'item.xml', 1_000)).toBe(1_000);
    expect(await first.since(dir, 'item.xml', 5_000)).toBe(1_000);
    const restarted = new PairWaits(desk.p.rt.redis, desk.p.config.prefix);
    expect(await restarted.since(dir, 'item.xml', 90_000)).toBe(1_000);
    await restarted.clear(dir, ['item.xml']);
    expect(await restarted.since(dir, 'item.xml', 90_000)).toBe(90_000);
    expect(await restarted.isDelivery(dir)).toBe(false);
    await first.markDelivery(dir, 1_000);
    expect(await restarted.isDelivery(dir)).toBe(true);
  });

  it('a folder holding nothing photowire reads is FEED_EMPTY naming what it skipped (run exits 1), never an empty batch', async () => {
    const dir = path.join(root, 'notes');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'README.txt'), 'Nothing here yet.\n');
    const [o] = await desk.p.ingest([dir]);
    expect(o.batchId).toBeNull();
    expect(o.error).toEqual({
      code: 'FEED_EMPTY',
      message: `${dir}: no picture and no feed photowire reads; 1 file(s) skipped (README.txt)`,
    });
  });
});
