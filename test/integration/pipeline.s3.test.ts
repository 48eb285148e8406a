import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { S3Storage } from '../../src/adapters/storage/s3Storage';
import { renditionManifestKey } from '../../src/core/storageKeys';
import { TestPipeline } from '../helpers/pipeline';
import { createBucket, dropBucket, uniqueBucket } from '../helpers/s3Bucket';
import { cephRgw, type S3Env } from '../helpers/services';
import { WIRE_IMAGES, makeTmpDir, removeDir, STORAGE_VARS } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * The item stage on S3: with PHOTOWIRE_STORAGE=s3://bucket/prefix every original,
 * rendition and manifest goes to the bucket (a real Ceph RGW), content-addressed: a feed of real
 * wire JPEGs, one of them twice under another name, gives one copy of each set; every record
 * names keys that exist, with their sizes; nothing is rendered into the local data directory.
 */
jest.setTimeout(scaledMs(180_000));

const rgw = cephRgw();
const PHOTOS = ['cp.jpg', 'pa.jpg', 'getty.jpg', 'corbis.jpg', 'cech.jpg'];

rgw.describe('the item pipeline with PHOTOWIRE_STORAGE=s3://... on Ceph RGW', () => {
  const bucket = uniqueBucket('pipeline');
  const feeds = makeTmpDir('s3-feeds');
  const saved: Record<string, string | undefined> = {};
  let env: S3Env;
  let p: TestPipeline | undefined;

  beforeAll(async () => {
    await rgw.start();
    env = rgw.env();
    await createBucket(env, bucket);
    // The storage is read from the environment, as `photowire worker` reads it (storageConfig.ts).
    for (const k of STORAGE_VARS) saved[k] = process.env[k];
    Object.assign(process.env, { PHOTOWIRE_STORAGE: `s3://${bucket}/pw`, ...env });
  }, 600_000);

  afterAll(async () => {
    await p?.rt.ctx.storage.close();
    await p?.close();
    for (const k of STORAGE_VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    if (env) await dropBucket(env, bucket);
    await rgw.stop();
    removeDir(feeds);
  });

  it('stores every rendition once in the bucket, and the records point to them', async () => {
    p = await TestPipeline.start({ concurrency: 2 });
    const storage = p.rt.ctx.storage;
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.describe).toBe(`s3://${bucket}/pw/ at ${env.S3_ENDPOINT}`);

    const feed = path.join(feeds, 'drop');
    mkdirSync(feed);
    for (const name of PHOTOS) copyFileSync(path.join(WIRE_IMAGES, name), path.join(feed, name));
    copyFileSync(path.join(WIRE_IMAGES, 'pa.jpg'), path.join(feed, 'pa-again.jpg')); // the same bytes twice
    const [o] = await p.ingest([feed], 120_000);
    const records = await p.rt.ctx.catalog.getRecords(o.batchId!);
    expect(records).toHaveLength(PHOTOS.length + 1);
    for (const r of records) expect([r.id, r.error]).toEqual([r.id, null]);

    const all = [];
    for await (const obj of storage.list('')) all.push(obj);
    // The batch's export (records.ndjson, summary.json) is in the bucket too, under batches/.
    expect(
      all
        .filter((x) => x.key.startsWith('batches/'))
        .map((x) => x.key)
        .sort(),
    ).toEqual([`batches/${o.batchId}/records.ndjson`, `batches/${o.batchId}/summary.json`]);
    const listed = all.filter((x) => !x.key.startsWith('batches/'));
    const keys = listed.map((x) => x.key);
    expect(new Set(keys).size).toBe(keys.length);
    const shas = new Set(records.map((r) => r.image!.sha256));
    expect(shas.size).toBe(PHOTOS.length);
    // per photo: the original, thumb, preview and the manifest; nothing else
    expect(keys.length).toBe(shas.size * 4);

    const size = new Map(listed.map((x) => [x.key, x.size]));
    for (const r of records) {
      const sha = r.image!.sha256;
      expect(r.image!.original).toMatch(new RegExp(`^originals/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}\\.jpg$`));
      expect(size.get(r.image!.original)).toBe(r.image!.bytes);
      expect(r.renditions.map((x) => x.name).sort()).toEqual(['preview', 'thumb']);
      for (const x of r.renditions) {
        expect(x.path.startsWith(`renditions/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}/`)).toBe(true);
        expect(size.get(x.path)).toBe(x.bytes);
      }
      const manifest = JSON.parse((await storage.get(renditionManifestKey(sha)))!.toString('utf8'));
      expect(manifest.renditions).toEqual(r.renditions);
    }
    // the two items of the same bytes name the same objects
    const bySha = new Map<string, typeof records>();
    for (const r of records) bySha.set(r.image!.sha256, [...(bySha.get(r.image!.sha256) ?? []), r]);
    const pa = [...bySha.values()].find((rs) => rs.length > 1)!;
    expect(pa).toHaveLength(2);
    expect(pa[0].renditions).toEqual(pa[1].renditions);
    // and nothing of the item stage was written to the local data directory
    expect(existsSync(path.join(p.config.dataDir, 'renditions'))).toBe(false);
    expect(existsSync(path.join(p.config.dataDir, 'originals'))).toBe(false);
  });
});
