import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestPipeline } from '../helpers/pipeline';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { dayFolder } from '../../src/app/hotFolder/destination';
import { Watcher, type TakeResult, type WatcherOptions } from '../../src/sources/hotFolder/watcher';
import { RunLog } from '../../src/adapters/redis/runLog';
import { scanHotFolder } from '../../src/app/hotFolder/scanFolder';
import { scaledMs } from '../helpers/deadline';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + scaledMs(timeoutMs); // scaled by the load (test/helpers/deadline.ts)
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A watcher that records what it took. */
function watcherOn(p: TestPipeline, opts: WatcherOptions): { w: Watcher; taken: TakeResult[] } {
  const w = new Watcher(p.rt, { scanMs: 100, fsWatch: false, ...opts });
  const taken: TakeResult[] = [];
  w.on('taken', (t: TakeResult) => taken.push(t));
  return { w, taken };
}

async function scansPass(w: Watcher, n: number): Promise<void> {
  const target = w.scans + n;
  await waitFor(`${n} scans`, () => w.scans >= target);
}

const today = () => dayFolder(new Date());

describe('hot folders (real Redis, real files)', () => {
  let p: TestPipeline;
  let photo: Buffer;
  const dirs: string[] = [];
  const watchers: Watcher[] = [];
  const newDrop = () => {
    const d = makeTmpDir('drop');
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    p = await TestPipeline.start();
    photo = await syntheticPhoto({ width: 900, height: 600, seed: 11 });
  });
  afterEach(async () => {
    await Promise.all(watchers.splice(0).map((w) => w.stop()));
  });
  afterAll(async () => {
    await p.close();
    for (const d of dirs) removeDir(d);
  });

  it('a file written slowly in chunks is taken once, and complete', async () => {
    const drop = newDrop();
    const { w, taken } = watcherOn(p, { dirs: [drop], settleMs: 2000 });
    watchers.push(w);
    await w.start();
    const file = path.join(drop, 'slow.jpg');
    const chunk = Math.ceil(photo.length / 10);
    for (let i = 0; i < photo.length; i += chunk) {
      appendFileSync(file, photo.subarray(i, i + chunk));
      await sleep(100);
    }
    const t = await waitFor('the file to be taken', () => taken[0]);
    await scansPass(w, 3);
    expect(taken).toHaveLength(1);
    expect(t).toMatchObject({ name: 'slow.jpg', reason: 'settled', outcome: 'processed' });
    const [record] = await p.rt.ctx.catalog.getRecords(t.batchId!);
    expect(record.error).toBeNull();
    expect(record.image!.sha256).toBe(sha(photo));
    expect(t.movedTo).toBe(path.join(drop, 'processed', today(), 'slow.jpg'));
    expect(readFileSync(t.movedTo).equals(photo)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('a .done marker makes a file ready at once; a rename from a temp name too; temp names are never taken', async () => {
    const drop = newDrop();
    // A settle time no test waits for: only the conventions can make these files ready.
    const { w, taken } = watcherOn(p, { dirs: [drop], settleMs: 10 * 60_000 });
    watchers.push(w);
    await w.start();

    writeFileSync(path.join(drop, 'marked.jpg'), photo);
    writeFileSync(path.join(drop, '.hidden.jpg'), photo);
    writeFileSync(path.join(drop, 'backup.jpg~'), photo);
    const part = path.join(drop, 'renamed.jpg.part');
    writeFileSync(part, photo.subarray(0, 1000));
    await scansPass(w, 2);
    appendFileSync(part, photo.subarray(1000));
    await scansPass(w, 2);
    expect(taken).toEqual([]);

    writeFileSync(path.join(drop, 'marked.jpg.done'), '');
    const m = await waitFor('the marked file', () => taken.find((t) => t.name === 'marked.jpg'));
    expect(m).toMatchObject({ reason: 'marker', outcome: 'processed' });
    expect(existsSync(path.join(drop, 'marked.jpg.done'))).toBe(false);

    renameSync(part, path.join(drop, 'renamed.jpg'));
    const r = await waitFor('the renamed file', () => taken.find((t) => t.name === 'renamed.jpg'));
    expect(r).toMatchObject({ reason: 'renamed', outcome: 'processed' });
    const [rec] = await p.rt.ctx.catalog.getRecords(r.batchId!);
    expect(rec.image!.sha256).toBe(sha(photo));

    await scansPass(w, 3);
    expect(taken.map((t) => t.name).sort()).toEqual(['marked.jpg', 'renamed.jpg']);
    expect(readdirSync(drop).sort()).toEqual(['.hidden.jpg', 'backup.jpg~', 'processed']);
  });

  it('files dropped while no watcher ran are taken at start; an unreadable one goes to failed/ with the reason', async () => {
    const drop = newDrop();
    writeFileSync(path.join(drop, 'early.jpg'), photo);
    writeFileSync(path.join(drop, 'notes.txt'), 'call the desk about the Wimbledon set\n');
    const gallery = path.join(drop, 'gallery');
    mkdirSync(gallery);
    writeFileSync(path.join(gallery, 'a.jpg'), await syntheticPhoto({ width: 400, height: 300, seed: 21 }));
    writeFileSync(path.join(gallery, 'b.jpg'), await syntheticPhoto({ width: 400, height: 300, seed: 22 }));
    writeFileSync(path.join(drop, 'gallery.done'), '');

    const { w, taken } = watcherOn(p, { dirs: [drop], settleMs: 300 });
    watchers.push(w);
    await w.start();
    await waitFor('three entries taken', () => taken.length >= 3 && taken);
    const by = Object.fromEntries(taken.map((t) => [t.name, t]));
    expect(by['early.jpg']).toMatchObject({ outcome: 'processed' });
    expect(by['gallery']).toMatchObject({
      outcome: 'processed',
      reason: 'marker',
      movedTo: path.join(drop, 'processed', today(), 'gallery'),
    });
    const galleryRecords = await p.rt.ctx.catalog.getRecords(by['gallery'].batchId!);
    expect(galleryRecords.map((r) => [path.basename(r.source.file), r.error])).toEqual([
      ['a.jpg', null],
      ['b.jpg', null],
    ]);

    const failed = by['notes.txt'];
    expect(failed).toMatchObject({ outcome: 'failed', batchId: null, error: { code: 'FEED_UNKNOWN_FORMAT' } });
    expect(failed.movedTo).toBe(path.join(drop, 'failed', today(), 'notes.txt'));
    const report = JSON.parse(readFileSync(`${failed.movedTo}.error.json`, 'utf8'));
    expect(report).toMatchObject({ file: path.join(drop, 'notes.txt'), code: 'FEED_UNKNOWN_FORMAT' });
    expect(report.message).toContain('notes.txt');

    const runs = await new RunLog(p.rt.redis, p.config.prefix).list({ schedule: 'watch' });
    const mine = runs.filter((r) => r.source.startsWith(drop));
    expect(mine.map((r) => [path.basename(r.source), r.state]).sort()).toEqual([
      ['early.jpg', 'done'],
      ['gallery', 'done'],
      ['notes.txt', 'failed'],
    ]);
  });

  it('a folder held too long by a temp-named file says so in runs, and the run closes when the upload ends', async () => {
    const drop = newDrop();
    const gallery = path.join(drop, 'gallery');
    mkdirSync(gallery);
    writeFileSync(path.join(gallery, 'a.jpg'), photo);
    writeFileSync(path.join(gallery, 'cp.jpg.part'), photo.subarray(0, 2000));
    writeFileSync(path.join(drop, 'gallery.done'), '');
    const { w, taken } = watcherOn(p, { dirs: [drop], settleMs: 200, holdWarnMs: 1000 });
    watchers.push(w);
    await w.start();
    const log = new RunLog(p.rt.redis, p.config.prefix);
    const waiting = await waitFor('a waiting run', async () =>
      (await log.list({ schedule: 'watch' })).find((r) => r.source === gallery && r.state === 'waiting'),
    );
    expect(waiting.note).toMatch(
      /^gallery\/ still holds cp\.jpg\.part after \d+ s \(its \.done marker is there\); waiting for the sender$/,
    );
    expect(taken).toEqual([]);

    appendFileSync(path.join(gallery, 'cp.jpg.part'), photo.subarray(2000));
    renameSync(path.join(gallery, 'cp.jpg.part'), path.join(gallery, 'cp.jpg'));
    const t = await waitFor('the gallery to be taken', () => taken[0]);
    expect(t).toMatchObject({ name: 'gallery', reason: 'marker', outcome: 'processed' });
    expect((await p.rt.ctx.catalog.getRecords(t.batchId!)).map((r) => path.basename(r.source.file))).toEqual([
      'a.jpg',
      'cp.jpg',
    ]);
    const closed = (await log.get(waiting.id))!;
    expect(closed.state).toBe('done');
    expect(closed.note).toMatch(/^gallery\/ waited .* for its temp-named files; no longer waiting$/);
  });

  it('two watchers on one folder take each file exactly once', async () => {
    const drop = newDrop();
    const a = watcherOn(p, { dirs: [drop], settleMs: 200, owner: 'machine-a' });
    const b = watcherOn(p, { dirs: [drop], settleMs: 200, owner: 'machine-b' });
    watchers.push(a.w, b.w);
    await Promise.all([a.w.start(), b.w.start()]);
    const names = Array.from({ length: 8 }, (_, i) => `p${i}.jpg`);
    for (const [i, n] of names.entries())
      writeFileSync(path.join(drop, n), await syntheticPhoto({ width: 300, height: 200, seed: 100 + i }));
    await waitFor('all files taken', () => a.taken.length + b.taken.length >= names.length);
    await Promise.all([scansPass(a.w, 3), scansPass(b.w, 3)]);
    const all = [...a.taken, ...b.taken];
    expect(all.map((t) => t.name).sort()).toEqual(names);
    expect(new Set(all.map((t) => t.batchId)).size).toBe(names.length);
    expect(readdirSync(path.join(drop, 'processed', today())).sort()).toEqual(names);
  });

  it('a feed and the photos it names, dropped side by side, make one record per photo and leave together', async () => {
    const drop = newDrop();
    const photoPath = path.join(drop, 'wimbledon.jpg');
    writeFileSync(photoPath, photo);
    writeFileSync(
      path.join(drop, 'feed.csv'),
      'ID,Caption,Credit,Image\nNWP0042,"Spectators shelter under umbrellas at Wimbledon. (Photo: Jane Halloran/Northwind Press)",Jane Halloran/Northwind Press,wimbledon.jpg\n',
    );
    const { w, taken } = watcherOn(p, { dirs: [drop], settleMs: 300 });
    watchers.push(w);
    await w.start();
    const t = await waitFor('the feed to be taken', () => taken.find((x) => x.name === 'feed.csv'));
    await scansPass(w, 3);
    expect(taken.map((x) => x.name)).toEqual(['feed.csv']);
    expect(t.companionsMovedTo).toEqual([path.join(drop, 'processed', today(), 'wimbledon.jpg')]);
    const records = await p.rt.ctx.catalog.getRecords(t.batchId!);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ agencyId: 'NWP0042', error: null });
    expect(records[0].image!.sha256).toBe(sha(photo));
  });
});

describe('a watcher killed mid-batch', () => {
  it('leaves the file in place; the next watcher lands on the same batch and takes nothing twice', async () => {
    // No workers yet: the batch cannot finish while the first watcher holds the file.
    const p = await TestPipeline.start({ workers: false });
    const drop = makeTmpDir('drop');
    try {
      writeFileSync(path.join(drop, 'a.jpg'), await syntheticPhoto({ width: 500, height: 400, seed: 5 }));
      writeFileSync(path.join(drop, 'a.jpg.done'), '');
      const first = watcherOn(p, { dirs: [drop], settleMs: 60_000, claimTtlMs: 1500, owner: 'killed' });
      await first.w.start();
      const batchId = await waitFor('the batch to be enqueued', async () => (await p.rt.ctx.catalog.listBatches())[0]);
      await first.w.stop({ abandon: true });
      expect(first.taken).toEqual([]);
      expect(existsSync(path.join(drop, 'a.jpg'))).toBe(true);
      expect(await p.rt.redis.get(first.w.claimKey(path.join(drop, 'a.jpg')))).toMatch(/^killed:/);

      const second = watcherOn(p, { dirs: [drop], settleMs: 60_000, claimTtlMs: 1500, owner: 'restarted' });
      await second.w.start();
      await p.rt.startWorkers(2);
      const t = await waitFor('the restarted watcher to finish the file', () => second.taken[0]);
      await second.w.stop();
      expect(t).toMatchObject({ name: 'a.jpg', outcome: 'processed', batchId });
      expect(await p.rt.ctx.catalog.listBatches()).toEqual([batchId]);
      expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ expected: 1, ok: 1, failed: 0, state: 'done' });
      const runs = await new RunLog(p.rt.redis, p.config.prefix).list();
      expect(runs.map((r) => [r.id, r.state])).toEqual([[`drop-${batchId}`, 'done']]);
    } finally {
      await p.close();
      removeDir(drop);
    }
  });
});

describe('a flood of files dropped at once', () => {
  it('a watcher takes at most maxTakes entries at once; the rest wait in the folder and are all taken later', async () => {
    // No workers at first: no batch can end, so takes stay in flight.
    const p = await TestPipeline.start({ workers: false });
    const drop = makeTmpDir('flood');
    let watcher: Watcher | null = null;
    try {
      const names = Array.from({ length: 6 }, (_, i) => `f${i}.jpg`);
      for (const [i, n] of names.entries())
        writeFileSync(path.join(drop, n), await syntheticPhoto({ width: 200, height: 150, seed: 300 + i }));
      const { w, taken } = watcherOn(p, { dirs: [drop], settleMs: 100, maxTakes: 2 });
      watcher = w;
      await w.start();
      await waitFor('two batches enqueued', async () => (await p.rt.ctx.catalog.listBatches()).length >= 2);
      await scansPass(w, 5);
      expect(await p.rt.ctx.catalog.listBatches()).toHaveLength(2);
      expect(readdirSync(drop).filter((n) => n.endsWith('.jpg'))).toHaveLength(6);

      await p.rt.startWorkers(2);
      await waitFor('every file taken', () => taken.length >= names.length, 60_000);
      await w.stop();
      expect(taken.map((t) => t.name).sort()).toEqual(names);
      expect(readdirSync(path.join(drop, 'processed', today())).sort()).toEqual(names);
    } finally {
      // Abandon what is still in flight (a failed expectation must not leave takes waiting for ever).
      await watcher?.stop({ abandon: true });
      await p.close();
      removeDir(drop);
    }
  });

  it('one scan looks at a bounded slice of the top level and says when there is more', async () => {
    const drop = makeTmpDir('top');
    try {
      for (let i = 0; i < 5; i++) writeFileSync(path.join(drop, `t${i}.jpg`), 'x');
      const some = await scanHotFolder(drop, undefined, 3);
      expect(some.candidates).toHaveLength(3);
      expect(some.truncated).toBe(true);
      const all = await scanHotFolder(drop);
      expect(all.candidates).toHaveLength(5);
      expect(all.truncated).toBeUndefined();
    } finally {
      removeDir(drop);
    }
  });
});
