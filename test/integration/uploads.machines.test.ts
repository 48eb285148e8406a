import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { S3Storage } from '../../src/adapters/storage/s3Storage';
import { CliProcess, startWorker, waitUntil } from '../helpers/processes';
import { createBucket, dropBucket, s3Storage, uniqueBucket } from '../helpers/s3Bucket';
import { cephRgw, type S3Env } from '../helpers/services';
import { deletePrefix, makeTmpDir, redisEnv, removeDir, REPO_ROOT, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Desk uploads through the storage port: the desk (`photowire serve`, its own
 * PHOTOWIRE_DATA_DIR) takes a real multipart POST of real JPEGs (test/fixtures/real-wire/images)
 * and stores them in a Ceph RGW bucket as `uploads/<id>/<name>`; a worker on "another machine"
 * (its own PHOTOWIRE_DATA_DIR, only Redis and the bucket shared) reads them from there. Checked:
 * every record and its renditions in the bucket, nothing left on either machine's disk, the same
 * upload twice is one batch and one set of objects, and a feed naming `../x.jpg` is refused with
 * PATH_OUTSIDE_FEED.
 */
jest.setTimeout(scaledMs(180_000));

const rgw = cephRgw();
const IMAGES = path.join(REPO_ROOT, 'test/fixtures/real-wire/images');
const PHOTOS = [
  'exiv2-iptc-psAPP13-wIPTC1-psAPP13-wIPTC2.jpg',
  'exiv2-iptc-psAPP13s-wIPTCs-psAPP13s-wIPTCs.jpg',
  'nodeiptc-test4.jpeg',
];

interface ApiRecord {
  index: number;
  error: { code: string; message: string } | null;
  image: { sha256: string; original: string; bytes: number } | null;
  renditions: Array<{ name: string; path: string; bytes: number }>;
}
interface Outcome {
  path: string;
  batchId: string | null;
  created: boolean;
  expected: number;
  error: { code: string } | null;
}

/** Every regular file below `dir` (relative paths). */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

rgw.describe(
  'desk uploads through the storage port: the desk and a worker on two machines, an S3 bucket between them (Ceph RGW)',
  () => {
    const bucket = uniqueBucket('uploads');
    const prefix = uniquePrefix('uploads');
    const deskDir = makeTmpDir('uploads-desk');
    const workerDir = makeTmpDir('uploads-worker');
    const procs: CliProcess[] = [];
    let s3: S3Env;
    let storage: S3Storage;
    let deskUrl = '';

    beforeAll(async () => {
      await rgw.start();
      s3 = rgw.env();
      await createBucket(s3, bucket);
      const target = `s3://${bucket}/desk`;
      storage = s3Storage(s3, target);
      const env = {
        ...redisEnv(),
        PHOTOWIRE_PREFIX: prefix,
        PHOTOWIRE_STORAGE: target,
        ...(s3 as unknown as Record<string, string>),
      };
      const desk = CliProcess.start(['serve', '--port', '0'], { ...env, PHOTOWIRE_DATA_DIR: deskDir });
      const worker = startWorker({ ...env, PHOTOWIRE_DATA_DIR: workerDir, LOG_LEVEL: 'info' }, 2);
      procs.push(desk, worker);
      const [ready] = await desk.waitForLogs((e) => e.msg === 'desk ready', 1, 60_000, '"desk ready"');
      deskUrl = String(ready.url);
      await worker.waitForLogs((e) => e.msg === 'worker ready', 1, 90_000, '"worker ready"');
    }, 600_000);

    afterAll(async () => {
      await Promise.all(procs.map((p) => p.stop()));
      await storage?.close();
      if (s3) await dropBucket(s3, bucket);
      await rgw.stop();
      await deletePrefix(prefix);
      removeDir(deskDir);
      removeDir(workerDir);
    }, 120_000);

    async function upload(files: Array<[string, Buffer]>): Promise<{ status: number; feeds: Outcome[] }> {
      const fd = new FormData();
      for (const [name, bytes] of files) fd.append('file', new Blob([bytes]), name);
      const res = await fetch(`${deskUrl}/api/feeds`, { method: 'POST', body: fd });
      const body = (await res.json()) as { feeds: Outcome[] };
      return { status: res.status, feeds: body.feeds };
    }

    async function doneRecords(batchId: string, expected: number): Promise<ApiRecord[]> {
      await waitUntil(
        async () => {
          const b = (await (await fetch(`${deskUrl}/api/batches/${batchId}`)).json()) as { state?: string };
          return b.state === 'done';
        },
        90_000,
        `batch ${batchId} done`,
        250,
      );
      const page = (await (await fetch(`${deskUrl}/api/batches/${batchId}/records?limit=100`)).json()) as {
        total: number;
        records: ApiRecord[];
      };
      expect(page.total).toBe(expected);
      return page.records;
    }

    async function keys(under: string): Promise<string[]> {
      const out: string[] = [];
      for await (const o of storage.list(under)) out.push(o.key);
      return out;
    }

    const photoFiles = (): Array<[string, Buffer]> => PHOTOS.map((n) => [n, readFileSync(path.join(IMAGES, n))]);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

    it('stores the upload in the bucket, a worker with another data dir renders it, and no machine keeps a file', async () => {
      const files = photoFiles();
      const first = await upload(files);
      expect(first.status).toBe(202);
      expect(first.feeds).toHaveLength(1);
      const [outcome] = first.feeds;
      expect(outcome).toMatchObject({ created: true, expected: PHOTOS.length, error: null });
      expect(outcome.path).toMatch(/^storage:uploads\/[0-9a-f]{16}\/$/);
      const folder = outcome.path.slice('storage:'.length);

      // The uploaded bytes are objects of the bucket, byte for byte.
      expect(await keys('uploads/')).toEqual([...PHOTOS].sort().map((n) => folder + n));
      for (const [name, bytes] of files) expect(sha((await storage.get(folder + name))!)).toBe(sha(bytes));

      const records = await doneRecords(outcome.batchId!, PHOTOS.length);
      for (const r of records) expect([r.index, r.error]).toEqual([r.index, null]);
      expect(new Set(records.map((r) => r.image!.sha256))).toEqual(new Set(files.map(([, b]) => sha(b))));
      for (const r of records) {
        expect((await storage.head(r.image!.original))?.size).toBe(r.image!.bytes);
        expect(r.renditions.map((x) => x.name).sort()).toEqual(['preview', 'thumb']);
        for (const x of r.renditions) expect((await storage.head(x.path))?.size).toBe(x.bytes);
      }
      // Nothing of the upload, its originals or renditions on either machine's disk.
      expect(filesBelow(deskDir)).toEqual([]);
      expect(filesBelow(workerDir)).toEqual([]);

      // The same upload again: the same batch, and not one object more.
      const before = await keys('');
      const again = await upload(files);
      expect(again.status).toBe(202);
      expect(again.feeds).toEqual([
        expect.objectContaining({ path: outcome.path, batchId: outcome.batchId, created: false }),
      ]);
      expect(await keys('')).toEqual(before);
      expect(filesBelow(deskDir)).toEqual([]);
    });

    it('refuses a photo reference that leaves the upload (../x.jpg) with PATH_OUTSIDE_FEED, and reads the others', async () => {
      const [name, bytes] = photoFiles()[0]!;
      const manifest = [
        { id: 'up-1', caption: 'A photo uploaded beside its manifest.', credit: 'AFP', image: name },
        { id: 'up-2', caption: 'A photo named outside the upload.', credit: 'AFP', image: '../x.jpg' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n');
      const res = await upload([
        ['wire.ndjson', Buffer.from(manifest + '\n')],
        [name, bytes],
      ]);
      expect(res.status).toBe(202);
      const [outcome] = res.feeds;
      expect(outcome).toMatchObject({ expected: 2, error: null });
      // Manifest and photo uploaded together are one folder feed: the photo is the manifest's item's, not a record of its own.
      expect(outcome.path).toMatch(/^storage:uploads\/[0-9a-f]{16}\/$/);
      const records = await doneRecords(outcome.batchId!, 2);
      const byIndex = new Map(records.map((r) => [r.index, r]));
      expect(byIndex.get(0)).toMatchObject({ error: null, image: { sha256: sha(bytes) } });
      expect(byIndex.get(1)!.error).toMatchObject({
        code: 'PATH_OUTSIDE_FEED',
        message: expect.stringContaining('"../x.jpg"'),
      });
      expect(byIndex.get(1)!.image).toBeNull();
      expect(filesBelow(deskDir)).toEqual([]);
    });
  },
);
