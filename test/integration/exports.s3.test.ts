import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { batchRecordsKey, batchSummaryKey } from '../../src/core/storageKeys';
import { finalizeBatch } from '../../src/app/jobs/batchWorker';
import { runCli } from '../helpers/cli';
import { TestPipeline } from '../helpers/pipeline';
import { createBucket, dropBucket, uniqueBucket } from '../helpers/s3Bucket';
import { cephRgw, type S3Env } from '../helpers/services';
import {
  REDIS_URL,
  WIRE_IMAGES,
  deletePrefix,
  makeTmpDir,
  removeDir,
  uniquePrefix,
  STORAGE_VARS,
} from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Batch exports and the storage check at start on S3, against a real Ceph RGW:
 * - finalize writes records.ndjson and summary.json to the bucket at batches/<id>/ (nothing in
 *   the local data directory), summary.json last; a second finalize rewrites the same two objects;
 *   `status` names the bucket's object, not a local path;
 * - `photowire worker` and `run` with a bucket that does not exist, or credentials it refuses,
 *   exit 2 at start naming the bucket and endpoint, the secret key never on stderr.
 */
jest.setTimeout(scaledMs(180_000));

const rgw = cephRgw();
const PHOTOS = ['cp.jpg', 'pa.jpg', 'getty.jpg'];

rgw.describe('batch exports and the storage check at start, on Ceph RGW', () => {
  const bucket = uniqueBucket('exports');
  const root = makeTmpDir('s3-exports');
  const saved: Record<string, string | undefined> = {};
  const prefixes: string[] = [];
  let env: S3Env;
  let p: TestPipeline | undefined;

  beforeAll(async () => {
    await rgw.start();
    env = rgw.env();
    await createBucket(env, bucket);
    for (const k of STORAGE_VARS) saved[k] = process.env[k];
    Object.assign(process.env, { PHOTOWIRE_STORAGE: `s3://${bucket}/pw`, ...env });
  }, 600_000);

  afterAll(async () => {
    await p?.close();
    for (const k of STORAGE_VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    for (const prefix of prefixes) await deletePrefix(prefix);
    if (env) await dropBucket(env, bucket);
    await rgw.stop();
    removeDir(root);
  });

  it('finalize writes records.ndjson and summary.json to the bucket, none locally; again the same objects', async () => {
    p = await TestPipeline.start({ concurrency: 2 });
    const storage = p.rt.ctx.storage;
    const feed = path.join(root, 'drop');
    mkdirSync(feed);
    for (const name of PHOTOS) copyFileSync(path.join(WIRE_IMAGES, name), path.join(feed, name));
    const [o] = await p.ingest([feed], 120_000);
    const batchId = o.batchId!;
    expect((await p.rt.ctx.catalog.getBatch(batchId))?.state).toBe('done');

    const keys = async () => {
      const out: string[] = [];
      for await (const x of storage.list(`batches/${batchId}/`)) out.push(x.key);
      return out;
    };
    expect(await keys()).toEqual([batchRecordsKey(batchId), batchSummaryKey(batchId)]);
    const lines = (await storage.get(batchRecordsKey(batchId)))!
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; error: unknown });
    expect(lines).toHaveLength(PHOTOS.length);
    for (const r of lines) expect(r.error).toBeNull();
    const summary = JSON.parse((await storage.get(batchSummaryKey(batchId)))!.toString('utf8'));
    expect(summary).toMatchObject({ batchId, items: PHOTOS.length, ok: PHOTOS.length, failed: 0, complete: true });
    expect(summary.records).toBe(`s3://${bucket}/pw/batches/${batchId}/records.ndjson`);
    expect(await p.rt.ctx.exports.isWhole(batchId)).toBe(true);
    // nothing of the export (or the item stage) in the local data directory
    expect(existsSync(path.join(p.config.dataDir, 'batches'))).toBe(false);
    expect(existsSync(path.join(p.config.dataDir, 'renditions'))).toBe(false);

    // summary.json is written after records.ndjson (an export is whole when its summary exists)
    const before = new Map<string, Date | undefined>();
    for await (const x of storage.list(`batches/${batchId}/`)) before.set(x.key, x.lastModified);
    expect(before.get(batchSummaryKey(batchId))!.getTime()).toBeGreaterThanOrEqual(
      before.get(batchRecordsKey(batchId))!.getTime(),
    );

    // A re-finalize (a retried finalize job, `photowire retry`) rewrites the same two objects.
    const recordsBefore = (await storage.get(batchRecordsKey(batchId)))!;
    await finalizeBatch(p.rt.ctx, batchId);
    expect(await keys()).toEqual([batchRecordsKey(batchId), batchSummaryKey(batchId)]);
    expect((await storage.get(batchRecordsKey(batchId)))!.equals(recordsBefore)).toBe(true);
    expect(JSON.parse((await storage.get(batchSummaryKey(batchId)))!.toString('utf8'))).toMatchObject({
      batchId,
      ok: PHOTOS.length,
      complete: true,
    });

    // `status` (another process) names the object in the bucket, not a local path.
    const cliEnv = {
      REDIS_URL,
      PHOTOWIRE_PREFIX: p.config.prefix,
      PHOTOWIRE_DATA_DIR: p.config.dataDir,
      PHOTOWIRE_STORAGE: `s3://${bucket}/pw`,
      ...env,
    };
    const status = await runCli(['status', batchId, '--json'], cliEnv);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      batchId,
      records: `s3://${bucket}/pw/batches/${batchId}/records.ndjson`,
      renditions: `s3://${bucket}/pw/renditions/`,
    });
  });

  const badStart = (label: string, vars: () => Record<string, string>, expectWhy: RegExp) =>
    it.each([[['worker']], [['run', '--sample']]])(
      `%p with ${label}: exit 2 at start naming the bucket and endpoint, no secret`,
      async (command: string[]) => {
        const prefix = uniquePrefix('s3start');
        prefixes.push(prefix);
        const dataDir = path.join(root, `${prefix}-data`);
        const v = vars();
        const out = await runCli(
          command,
          { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env, ...v },
          { timeoutMs: 60_000 },
        );
        expect({ code: out.code, stdout: out.stdout }).toEqual({ code: 2, stdout: '' });
        const bucketName = /^s3:\/\/([^/]+)/.exec(v.PHOTOWIRE_STORAGE)![1];
        expect(out.stderr).toContain(`"${bucketName}"`);
        expect(out.stderr).toContain(env.S3_ENDPOINT);
        expect(out.stderr).toMatch(expectWhy);
        expect(out.stderr).not.toContain(v.AWS_SECRET_ACCESS_KEY ?? env.AWS_SECRET_ACCESS_KEY);
        expect(out.stderr).not.toMatch(/this looks like a bug/);
        // no item was taken, nothing written
        expect(existsSync(path.join(dataDir, 'batches'))).toBe(false);
      },
    );

  badStart(
    'a bucket that does not exist',
    () => ({ PHOTOWIRE_STORAGE: 's3://no-such-bucket-c2/pw' }),
    /does not exist/,
  );
  badStart(
    'credentials the store refuses',
    () => ({ PHOTOWIRE_STORAGE: `s3://${bucket}/pw`, AWS_SECRET_ACCESS_KEY: 'wrong-secret-Zq81xVb2Lk0' }),
    /refuses the credentials/,
  );
});
