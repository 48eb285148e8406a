import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, makeTmpDir, removeDir } from '../helpers/testEnv';
import { TestPipeline } from '../helpers/pipeline';
import { photoVariants, tinyJpeg, writeRefusedFeeds } from '../helpers/corpus';
import { expectBatchWhole } from '../helpers/integrity';
import { scaledMs } from '../helpers/deadline';

/**
 * Feeds that are bad as a whole (refused with one clear error, the other feeds of the same call
 * going on), and bad items in the other feed shapes: a JSON array manifest, a folder of files,
 * single photos given on their own.
 */
jest.setTimeout(scaledMs(90_000));

describe('bad feeds and bad items in folders and JSON manifests', () => {
  let p: TestPipeline;
  let root: string;

  beforeAll(async () => {
    p = await TestPipeline.start();
    root = makeTmpDir('bad-feeds');
  });
  afterAll(async () => {
    await p.close();
    removeDir(root);
  });

  it('refuses a bad feed whole with its code, and the good feed given with it still runs', async () => {
    const refused = writeRefusedFeeds(path.join(root, 'refused'), path.join(REPO_ROOT, 'test/fixtures/feeds'));
    const good = path.join(root, 'good.ndjson');
    writeFileSync(good, JSON.stringify({ caption: 'Lifeboat crews rescue a stranded walker near Whitby.' }) + '\n');
    const started = Date.now();
    const out = await p.ingest([...refused.map((f) => f.file), good]);
    expect(Date.now() - started).toBeLessThan(scaledMs(20_000)); // the entity bomb is refused, not expanded
    expect(
      out.slice(0, -1).map((o, i) => ({ label: refused[i].label, code: o.error?.code, batch: o.batchId })),
    ).toEqual(refused.map((f) => ({ label: f.label, code: f.code, batch: null })));
    for (const [i, o] of out.slice(0, -1).entries()) expect(o.error!.message).toContain(refused[i].file);
    const last = out[out.length - 1];
    expect(last.error).toBeNull();
    expect(await p.rt.ctx.catalog.getBatch(last.batchId!)).toMatchObject({ state: 'done', ok: 1 });

    // The external entity was never resolved: /etc/passwd is nowhere in Redis.
    const passwdLine = readFileSync('/etc/passwd', 'utf8').split('\n')[0];
    const keys = await p.rt.redis.keys(`${p.config.prefix}:*`);
    for (const k of keys) {
      if ((await p.rt.redis.type(k)) !== 'hash') continue;
      const values = Object.values(await p.rt.redis.hgetall(k)).join('\n');
      expect(values.includes(passwdLine)).toBe(false);
    }
    expect(out.find((o) => o.path.endsWith('xxe.xml'))!.error!.message).toMatch(/DOCTYPE|entit/i);
  });

  it('a JSON array manifest: bad items fail by position, duplicates and escapes included, the rest go on', async () => {
    const dir = path.join(root, 'json');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.jpg'), await tinyJpeg(120, 80));
    const manifest = path.join(dir, 'items.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        items: [
          { id: 'A1', caption: 'Sheep graze below the Old Man of Storr on the Isle of Skye.', image: 'a.jpg' },
          { id: 'A1', caption: 'A second item reusing the id A1.' },
          { id: 'A3', caption: ['not', 'a', 'string'] },
          { id: 'A4', caption: 'Escapes the folder', image: '../../../../etc/shadow' },
          'just a string',
          { id: 'A6', caption: '' },
        ],
      }),
    );
    const [o] = await p.ingest([manifest]);
    const records = await p.rt.ctx.catalog.getRecords(o.batchId!);
    expect(records.map((r) => r.error?.code ?? 'ok')).toEqual([
      'ok',
      'ITEM_DUPLICATE_ID',
      'ITEM_INVALID',
      'PATH_OUTSIDE_FEED',
      'ITEM_INVALID',
      'ok',
    ]);
    expect(records[2].error!.message).toMatch(/items\.json: item 3: caption: /);
    expect(records[4].error!.message).toMatch(/items\.json: item 5: item: /);
    await expectBatchWhole(p.rt, o.batchId!, { items: 6, ok: 2 });
  });

  it('a folder: broken photos fail one by one, a symlink out is refused, other files are listed as warnings', async () => {
    const dir = path.join(root, 'folder');
    const outside = path.join(root, 'elsewhere');
    mkdirSync(dir);
    mkdirSync(outside);
    const [good] = await photoVariants(1, 800, 600, 3);
    writeFileSync(path.join(dir, '01-good.jpg'), good);
    writeFileSync(path.join(dir, '02-empty.jpg'), Buffer.alloc(0));
    writeFileSync(path.join(dir, '03-truncated.jpg'), good.subarray(0, 2000));
    writeFileSync(path.join(dir, '04-page.jpg'), '<html>Service Unavailable</html>');
    writeFileSync(path.join(outside, 'private.jpg'), await tinyJpeg(50, 50));
    symlinkSync(path.join(outside, 'private.jpg'), path.join(dir, '05-link.jpg'));
    writeFileSync(path.join(dir, 'notes.txt'), 'Call the desk.');
    const [o] = await p.ingest([dir]);
    const records = await p.rt.ctx.catalog.getRecords(o.batchId!);
    expect(records.map((r) => [path.basename(r.source.file), r.error?.code ?? 'ok'])).toEqual([
      ['01-good.jpg', 'ok'],
      ['02-empty.jpg', 'IMAGE_CORRUPT'],
      ['03-truncated.jpg', 'IMAGE_CORRUPT'],
      ['04-page.jpg', 'IMAGE_UNSUPPORTED'],
      ['05-link.jpg', 'PATH_OUTSIDE_FEED'],
    ]);
    const ledger = await p.rt.ctx.catalog.getBatch(o.batchId!);
    expect(ledger!.warnings).toEqual([
      `${path.join(dir, 'notes.txt')}: skipped, not a picture or a feed photowire reads`,
    ]);
    await expectBatchWhole(p.rt, o.batchId!, { items: 5, ok: 1 });
  });

  it('a broken photo given on its own is a failed photo with its reason, not an unknown feed', async () => {
    const dir = path.join(root, 'single');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'empty.jpg'), Buffer.alloc(0));
    writeFileSync(path.join(dir, 'page.jpg'), '<!doctype html><title>Gateway Timeout</title>');
    const out = await p.ingest([path.join(dir, 'empty.jpg'), path.join(dir, 'page.jpg')]);
    expect(out.map((o) => o.error)).toEqual([null, null]);
    const [empty] = await p.rt.ctx.catalog.getRecords(out[0].batchId!);
    const [page] = await p.rt.ctx.catalog.getRecords(out[1].batchId!);
    expect(empty.error).toEqual({
      code: 'IMAGE_CORRUPT',
      message: `${path.join(dir, 'empty.jpg')}: the file is empty (0 bytes)`,
    });
    expect(page.error?.code).toBe('IMAGE_UNSUPPORTED');
  });
});
