import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { ConfigError } from '../../src/config';
import { freePort } from '../../src/adapters/redis/ensureRedis';
import { StorageConfigError, StorageError } from '../../src/adapters/storage/storagePort';
import type { S3Storage } from '../../src/adapters/storage/s3Storage';
import { cephRgw, type S3Env } from '../helpers/services';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faultyProxy';
import { createBucket, dropBucket, s3Storage, uniqueBucket } from '../helpers/s3Bucket';

/**
 * The S3 adapter's faults against a real Ceph RGW: a missing bucket or refused
 * credentials at open are configuration errors naming bucket and endpoint (never the secret);
 * a 5xx or a timeout is retried with backoff, then surfaces as STORAGE_FAILED with nothing
 * half-written visible, and the same call succeeds once the store is back ("retry recovers it").
 * The faults come from a tiny proxy in front of the RGW (test/helpers/faultyProxy.ts).
 */

const rgw = cephRgw();

async function openError(s: S3Storage): Promise<StorageConfigError> {
  try {
    await s.open();
  } catch (err) {
    return err as StorageConfigError;
  } finally {
    await s.close();
  }
  throw new Error('open() succeeded');
}

rgw.describe('S3 storage on a real Ceph RGW: configuration errors and retried faults', () => {
  const bucket = uniqueBucket('s3faults');
  let env: S3Env;
  let proxy: FaultyProxy;
  let direct: S3Storage;
  const opened: S3Storage[] = [];
  /** An adapter that talks to the RGW through the faulty proxy. */
  const viaProxy = (extra: Record<string, string>, opts: { partSizeBytes?: number } = {}) => {
    const s = s3Storage({ ...env, S3_ENDPOINT: proxy.url }, `s3://${bucket}/p`, extra, opts);
    opened.push(s);
    return s;
  };

  beforeAll(async () => {
    await rgw.start();
    env = rgw.env();
    await createBucket(env, bucket);
    proxy = await startFaultyProxy(env.S3_ENDPOINT);
    direct = s3Storage(env, `s3://${bucket}/p`);
    await direct.open();
  }, 600_000);

  afterAll(async () => {
    for (const s of opened) await s.close();
    await direct?.close();
    await proxy?.close();
    if (env) await dropBucket(env, bucket);
    await rgw.stop();
  }, 60_000);

  afterEach(() => proxy.forwardAll());

  it('a bucket that does not exist: a configuration error (exit 2) naming bucket and endpoint', async () => {
    const err = await openError(s3Storage(env, 's3://pwtest-no-such-bucket/x'));
    expect(err).toBeInstanceOf(StorageConfigError);
    expect(err).toBeInstanceOf(ConfigError); // the CLI maps ConfigError to exit 2 (src/cli/main.ts)
    expect(err.reason).toBe('bucket-missing');
    expect(err.message).toContain('"pwtest-no-such-bucket" does not exist');
    expect(err.message).toContain(env.S3_ENDPOINT);
    expect(err.message).not.toContain(env.AWS_SECRET_ACCESS_KEY);
  });

  it('a wrong secret key or an unknown access key: refused credentials, the secret never shown', async () => {
    const wrongSecret = 'not-the-secret-' + randomBytes(8).toString('hex');
    const e1 = await openError(s3Storage(env, `s3://${bucket}/x`, {}, { secret: wrongSecret }));
    expect(e1.reason).toBe('credentials-refused');
    expect(e1.message).toContain(`"${bucket}"`);
    expect(e1.message).toContain(env.S3_ENDPOINT);
    expect(e1.message).toMatch(/HTTP 403/);
    expect(e1.message).not.toContain(wrongSecret);
    expect(e1.message).not.toContain(env.AWS_SECRET_ACCESS_KEY);
    const e2 = await openError(
      s3Storage(env, `s3://${bucket}/x`, {}, { accessKey: 'NOSUCHKEY' + randomBytes(4).toString('hex') }),
    );
    expect(e2.reason).toBe('credentials-refused');
    expect(e2.message).not.toContain(env.AWS_SECRET_ACCESS_KEY);
  });

  it('nothing answering at S3_ENDPOINT: a configuration error naming the endpoint', async () => {
    const port = await freePort();
    const err = await openError(
      s3Storage({ ...env, S3_ENDPOINT: `http://127.0.0.1:${port}` }, `s3://${bucket}/x`, {
        PHOTOWIRE_STORAGE_ATTEMPTS: '1',
      }),
    );
    expect(err.reason).toBe('unreachable');
    expect(err.message).toContain(`http://127.0.0.1:${port}`);
  });

  it('two 503 answers, then the RGW: the put is retried with backoff and succeeds on the third try', async () => {
    const s = viaProxy({ PHOTOWIRE_STORAGE_ATTEMPTS: '3' });
    proxy.failNext(2, (r) => r.method === 'PUT');
    const before = proxy.seen.length;
    await s.put('renditions/a/thumb.webp', 'after two 503s');
    expect(proxy.seen.slice(before).filter((l) => l.startsWith('PUT '))).toHaveLength(3);
    expect((await direct.get('renditions/a/thumb.webp'))!.toString()).toBe('after two 503s');
    // putIfAbsent goes through the same retries (a 503 is not a 412).
    proxy.failNext(2, (r) => r.method === 'PUT');
    expect(await s.putIfAbsent('renditions/a/renditions.json', '{}')).toBe('created');
    expect(await s.putIfAbsent('renditions/a/renditions.json', '{"x":1}')).toBe('exists');
  });

  it('503 on every try: STORAGE_FAILED after the attempts, nothing stored; the same put succeeds once the store is back', async () => {
    const s = viaProxy({ PHOTOWIRE_STORAGE_ATTEMPTS: '2' });
    proxy.failNext(2, (r) => r.method === 'PUT');
    const err = (await s.put('batches/b1/summary.json', '{"ok":1}').catch((e: unknown) => e)) as StorageError;
    expect(err).toBeInstanceOf(StorageError);
    expect(err.code).toBe('STORAGE_FAILED');
    expect(err.message).toContain(`s3://${bucket}/p/batches/b1/summary.json`);
    expect(err.message).toMatch(/HTTP 503 .*after 2 attempts/);
    expect(await direct.head('batches/b1/summary.json')).toBeNull();
    await s.put('batches/b1/summary.json', '{"ok":1}');
    expect((await direct.get('batches/b1/summary.json'))!.toString()).toBe('{"ok":1}');
  });

  it('a request that never gets an answer: a timeout, retried, then STORAGE_FAILED', async () => {
    const s = viaProxy({ PHOTOWIRE_STORAGE_ATTEMPTS: '2', PHOTOWIRE_STORAGE_TIMEOUT_MS: '400' });
    proxy.hang((r) => r.method === 'GET');
    const t0 = Date.now();
    const err = (await s.get('batches/b1/summary.json').catch((e: unknown) => e)) as StorageError;
    expect(err).toBeInstanceOf(StorageError);
    expect(err.code).toBe('STORAGE_FAILED');
    expect(err.message).toMatch(/timeout|timed out|socket hang up/i);
    expect(proxy.seen.filter((l) => l.startsWith('GET ') && l.includes('summary.json')).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(800);
  });

  it("a known SHA-256 (an original's content address) is signed as the payload hash and checked by the RGW: right = stored, wrong = refused", async () => {
    const s = viaProxy({});
    const body = randomBytes(300_000);
    const sha = createHash('sha256').update(body).digest('hex');
    const sent: string[] = [];
    // the proxy's hang() predicate sees every request: used here only to read the header, never to hold one
    proxy.hang((r) => {
      if (r.method === 'PUT') sent.push(String(r.headers['x-amz-content-sha256']));
      return false;
    });
    expect(await s.putIfAbsent('originals/k/known.jpg', body, { sha256: sha })).toBe('created');
    expect(sent).toEqual([sha]);
    expect(
      createHash('sha256')
        .update((await direct.get('originals/k/known.jpg'))!)
        .digest('hex'),
    ).toBe(sha);
    // without one the SDK hashes the body itself: the same header, computed
    await s.putIfAbsent('originals/k/computed.jpg', body);
    expect(sent).toEqual([sha, sha]);

    // a hash that is not the body's (bytes changed on the way, or a wrong key): refused, nothing stored
    const other = createHash('sha256').update('other bytes').digest('hex');
    const err = (await s
      .putIfAbsent('originals/k/wrong.jpg', body, { sha256: other })
      .catch((e: unknown) => e)) as StorageError;
    expect(err).toBeInstanceOf(StorageError);
    expect(err.message).toMatch(/HTTP 400/);
    expect(await direct.head('originals/k/wrong.jpg')).toBeNull();
    // not a digest at all: refused before any request, and not as a storage fault
    const before = proxy.seen.length;
    const bad = await s.putIfAbsent('originals/k/bad.jpg', body, { sha256: 'ABC' }).catch((e: unknown) => e);
    expect(bad).not.toBeInstanceOf(StorageError);
    expect(String(bad)).toMatch(/64 lowercase hex digits/);
    expect(proxy.seen.length).toBe(before);
  });

  it('a streamed multipart upload: a 503 on one part is retried; parts failing for good leave no object and no open upload', async () => {
    const s = viaProxy({ PHOTOWIRE_STORAGE_ATTEMPTS: '3' }, { partSizeBytes: 5 * 1024 * 1024 });
    const body = randomBytes(11 * 1024 * 1024);
    const isPart = (r: { method?: string; url?: string }) =>
      r.method === 'PUT' && /[?&]partNumber=2\b/.test(r.url ?? '');
    proxy.failNext(1, isPart);
    await s.put('originals/big/one.tif', Readable.from([body.subarray(0, 3_000_000), body.subarray(3_000_000)]));
    const back = await direct.get('originals/big/one.tif');
    expect(createHash('sha256').update(back!).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
    expect(proxy.seen.filter((l) => isPart({ method: l.split(' ')[0], url: l.split(' ')[1] }))).toHaveLength(2);

    proxy.failNext(1000, (r) => r.method === 'PUT' && /[?&]partNumber=/.test(r.url ?? ''));
    const err = (await s.put('originals/big/two.tif', Readable.from([body])).catch((e: unknown) => e)) as StorageError;
    expect(err).toBeInstanceOf(StorageError);
    expect(err.code).toBe('STORAGE_FAILED');
    expect(await direct.head('originals/big/two.tif')).toBeNull();
    const open = await direct.client.send(
      new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: 'p/originals/big/two.tif' }),
    );
    expect(open.Uploads ?? []).toEqual([]);
  });
});
