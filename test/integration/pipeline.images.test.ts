import { copyFileSync, mkdirSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { TestPipeline } from '../helpers/pipeline';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';

describe('a folder of photos (real Redis, real JPEG bytes)', () => {
  let p: TestPipeline;
  let feedDir: string;

  beforeAll(async () => {
    p = await TestPipeline.start();
    feedDir = makeTmpDir('feed');
    const big = await syntheticPhoto({ width: 3000, height: 2000, seed: 1 });
    writeFileSync(
      path.join(feedDir, 'a-big.jpg'),
      insertIptcIntoJpeg(
        big,
        buildIimBlock(
          {
            caption: 'Growers inspect tulip bulbs near Lisse, the Netherlands, 30 October 2026. EPA-EFE/KOEN VAN WEEL',
            byline: ['KOEN VAN WEEL'],
            credit: 'EPA-EFE',
            copyright: 'EPA',
            city: 'Lisse',
          },
          { utf8: true },
        ),
      ),
    );
    writeFileSync(path.join(feedDir, 'b-small.jpg'), await syntheticPhoto({ width: 300, height: 200, seed: 2 }));
    const good = await syntheticPhoto({ width: 800, height: 600, seed: 3 });
    writeFileSync(path.join(feedDir, 'c-truncated.jpg'), good.subarray(0, Math.floor(good.length / 3)));
    writeFileSync(path.join(feedDir, 'd-not-a-photo.jpg'), '<html><body>404 Not Found</body></html>');
  });
  afterAll(async () => {
    await p.close();
    removeDir(feedDir);
  });

  it('renders thumb and preview for good photos and fails the bad ones clearly, one by one', async () => {
    const [o] = await p.ingest([feedDir]);
    const records = await p.rt.ctx.catalog.getRecords(o.batchId!);
    expect(records.map((r) => path.basename(r.source.file))).toEqual([
      'a-big.jpg',
      'b-small.jpg',
      'c-truncated.jpg',
      'd-not-a-photo.jpg',
    ]);

    const [big, small, truncated, html] = records;
    expect(big.error).toBeNull();
    expect(big.image).toMatchObject({ width: 3000, height: 2000, format: 'jpeg' });
    expect(big.image!.phash).toMatch(/^[0-9a-f]{16}$/);
    const thumb = big.renditions.find((r) => r.name === 'thumb')!;
    const preview = big.renditions.find((r) => r.name === 'preview')!;
    expect([thumb.width, thumb.height, thumb.format]).toEqual([400, 267, 'webp']);
    expect([preview.width, preview.height, preview.format]).toEqual([1600, 1067, 'jpeg']);
    const thumbMeta = await sharp(await p.readStored(thumb.path)).metadata();
    expect([thumbMeta.format, thumbMeta.width, thumbMeta.height]).toEqual(['webp', 400, 267]);
    expect(thumb.path).toBe(
      path.join(
        'renditions',
        big.image!.sha256.slice(0, 2),
        big.image!.sha256.slice(2, 4),
        big.image!.sha256,
        'thumb.webp',
      ),
    );
    // The credit travels with the pixels.
    const exif = (await sharp(await p.readStored(preview.path)).metadata()).exif!.toString('latin1');
    expect(exif).toContain('Koen van Weel');
    expect(big.credit).toMatchObject({ creators: ['Koen van Weel'], agency: 'EPA' });
    expect(big.caption).not.toContain('EPA-EFE');

    // Never enlarged.
    expect(small.renditions.map((r) => [r.name, r.width, r.height])).toEqual([
      ['thumb', 300, 200],
      ['preview', 300, 200],
    ]);

    expect(truncated.error?.code).toBe('IMAGE_CORRUPT');
    expect(truncated.error?.message).toContain('c-truncated.jpg');
    expect(html.error?.code).toMatch(/IMAGE_UNSUPPORTED|IMAGE_CORRUPT/);
    expect(html.error?.message).toContain('d-not-a-photo.jpg');

    const failed = await p.rt.ctx.catalog.getFailed(o.batchId!);
    expect(failed.map((f) => [f.position, f.code])).toEqual([
      [2, 'IMAGE_CORRUPT'],
      [3, html.error!.code],
    ]);
    expect(failed[0].attempts).toBe(1); // bad input is not retried
    expect(await p.rt.ctx.catalog.getBatch(o.batchId!)).toMatchObject({ state: 'done', ok: 2, failed: 2 });
    // No scratch file left behind (the local folder's tmp/, also the render scratch with S3 storage).
    const tmp = path.join(p.config.dataDir, 'tmp');
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  });

  it('never renders the same bytes twice, even from another feed', async () => {
    const [first] = await p.ingest([feedDir]); // same feed again: same batch, nothing runs
    const records = await p.rt.ctx.catalog.getRecords(first.batchId!);
    // The thumb's stored object (a file, or an S3 object: the test matrix, test/helpers/testEnv.ts).
    const thumbKey = records[0].renditions[0].path;
    const before = (await p.rt.ctx.storage.head(thumbKey))!.lastModified!.getTime();

    const other = makeTmpDir('feed2');
    try {
      mkdirSync(path.join(other, 'sub'));
      copyFileSync(path.join(feedDir, 'a-big.jpg'), path.join(other, 'sub', 'same-bytes.jpg'));
      const [o2] = await p.ingest([other]);
      expect(o2.batchId).not.toBe(first.batchId);
      const [r2] = await p.rt.ctx.catalog.getRecords(o2.batchId!);
      expect(r2.image!.sha256).toBe(records[0].image!.sha256);
      expect(r2.renditions).toEqual(records[0].renditions);
      expect((await p.rt.ctx.storage.head(thumbKey))!.lastModified!.getTime()).toBe(before);
    } finally {
      removeDir(other);
    }
  });

  it('keeps the original, content-addressed', async () => {
    const originals = await p.listStored('originals/');
    expect(originals.length).toBeGreaterThan(0);
    for (const k of originals) expect(k).toMatch(/^originals\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg$/);
  });
});
