import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { LocalDirStorage } from '../../src/adapters/storage/localStorage';
import type { StoragePort } from '../../src/adapters/storage/storagePort';
import { renditionKey, renditionManifestKey } from '../../src/core/storageKeys';
import { cephRgw } from '../helpers/services';
import { createBucket, dropBucket, s3Storage, uniqueBucket } from '../helpers/s3Bucket';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * One contract, two adapters: the local directory in a temp folder, and S3 against a
 * real Ceph RADOS Gateway started by scripts/services/ceph-rgw.sh (or the one S3_ENDPOINT names).
 * Each promise of StoragePort (src/adapters/storage/storagePort.ts) is checked on both.
 */

const rgw = cephRgw();
const SHA = createHash('sha256').update('contract photo').digest('hex');

interface Subject {
  name: string;
  make(): Promise<StoragePort>;
  /** Read the bytes behind `url()` the way its user would (a browser fetch; a file:// path). */
  readUrl(url: string): Promise<Buffer>;
  cleanup(): Promise<void>;
}

function localSubject(): Subject {
  let dir = '';
  return {
    name: 'local directory',
    async make() {
      dir = makeTmpDir('storage-contract');
      const s = new LocalDirStorage(dir);
      await s.open();
      return s;
    },
    readUrl: async (url) => fs.readFile(fileURLToPath(url)),
    async cleanup() {
      removeDir(dir);
    },
  };
}

function s3Subject(): Subject {
  const bucket = uniqueBucket('contract');
  let port: StoragePort | null = null;
  return {
    name: 'S3 (Ceph RGW)',
    async make() {
      await createBucket(rgw.env(), bucket);
      // A prefix, as PHOTOWIRE_STORAGE=s3://bucket/prefix gives: every key must live under it.
      port = s3Storage(rgw.env(), `s3://${bucket}/wire/photowire`, {}, { partSizeBytes: 5 * 1024 * 1024 });
      await port.open();
      return port;
    },
    async readUrl(url) {
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`GET ${url.split('?')[0]}: HTTP ${res.status} ${await res.text()}`);
      return Buffer.from(await res.arrayBuffer());
    },
    async cleanup() {
      await port?.close();
      await dropBucket(rgw.env(), bucket);
    },
  };
}

async function keysOf(port: StoragePort, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of port.list(prefix)) out.push(o.key);
  return out;
}

/** A body of `total` bytes handed over in uneven chunks, never held whole by the stream. */
function chunked(total: number, seed: number): { stream: Readable; sha256: string } {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let left = total;
  let i = 0;
  while (left > 0) {
    const n = Math.min(left, 700_000 + ((seed * 7919 + i++ * 104729) % 300_000));
    const c = randomBytes(n);
    hash.update(c);
    chunks.push(c);
    left -= n;
  }
  return { stream: Readable.from(chunks), sha256: hash.digest('hex') };
}

function contract(subject: Subject): void {
  let port: StoragePort;
  beforeAll(async () => {
    port = await subject.make();
  });
  afterAll(async () => {
    await subject.cleanup();
  });

  it('put, get, head and delete one object; absent objects are null, deleting one is fine', async () => {
    const key = renditionKey(SHA, 'thumb.webp');
    const body = randomBytes(4096);
    expect(await port.get(key)).toBeNull();
    expect(await port.head(key)).toBeNull();
    await port.put(key, body, { contentType: 'image/webp', cacheControl: 'public, max-age=31536000, immutable' });
    expect((await port.get(key))!.equals(body)).toBe(true);
    expect(await port.head(key)).toMatchObject({ key, size: 4096 });
    // Overwrite with put (not putIfAbsent): the new bytes win.
    await port.put(key, 'second');
    expect((await port.get(key))!.toString()).toBe('second');
    const stream = await port.getStream(key);
    const parts: Buffer[] = [];
    for await (const c of stream!) parts.push(Buffer.from(c as Uint8Array));
    expect(Buffer.concat(parts).toString()).toBe('second');
    await port.delete(key);
    expect(await port.get(key)).toBeNull();
    expect(await port.getStream(key)).toBeNull();
    await port.delete(key);
    await port.delete('never/written.bin');
  });

  it('says whether its objects are files on this machine: the folder they are in, or null', async () => {
    const key = renditionKey(SHA, 'preview.webp');
    await port.put(key, 'on disk?');
    if (port.kind === 'local') {
      expect(readFileSync(path.join(port.localRoot!, key), 'utf8')).toBe('on disk?');
    } else {
      expect(port.localRoot).toBeNull();
    }
    await port.delete(key);
  });

  it('lists by prefix in key order, only under the prefix (a folder prefix and a partial name)', async () => {
    for (const k of [
      'batches/b1/records.ndjson',
      'batches/b1/summary.json',
      'batches/b10/summary.json',
      'batches/b2/records.ndjson',
      'originals/x.jpg',
    ]) {
      await port.put(k, k);
    }
    expect(await keysOf(port, 'batches/b1/')).toEqual(['batches/b1/records.ndjson', 'batches/b1/summary.json']);
    expect(await keysOf(port, 'batches/b1')).toEqual([
      'batches/b1/records.ndjson',
      'batches/b1/summary.json',
      'batches/b10/summary.json',
    ]);
    expect(await keysOf(port, 'batches/')).toHaveLength(4);
    expect(await keysOf(port, 'nothing/')).toEqual([]);
    const all = await keysOf(port, '');
    expect(all).toEqual(expect.arrayContaining(['originals/x.jpg', 'batches/b2/records.ndjson']));
    const sizes: number[] = [];
    for await (const o of port.list('originals/')) sizes.push(o.size);
    expect(sizes).toEqual(['originals/x.jpg'.length]);
  });

  it('lists past 1000 keys (S3 pages of 1000: ListObjectsV2 continuation) with none lost or repeated', async () => {
    const keys = Array.from({ length: 1234 }, (_, i) => `many/${String(i).padStart(5, '0')}.json`);
    for (let i = 0; i < keys.length; i += 32) await Promise.all(keys.slice(i, i + 32).map((k) => port.put(k, '{}')));
    const listed = await keysOf(port, 'many/');
    expect(listed).toHaveLength(1234);
    expect(listed).toEqual(keys);
  }, 120_000);

  it('putIfAbsent: "created" the first time, "exists" after, and the first bytes stay', async () => {
    const key = renditionManifestKey(SHA);
    expect(await port.putIfAbsent(key, '{"first":true}', { contentType: 'application/json' })).toBe('created');
    expect(await port.putIfAbsent(key, '{"second":true}', { contentType: 'application/json' })).toBe('exists');
    expect((await port.get(key))!.toString()).toBe('{"first":true}');
  });

  it('20 concurrent putIfAbsent of one key: exactly one winner, and its bytes are the ones stored', async () => {
    for (let round = 0; round < 3; round++) {
      const key = `race/${round}/renditions.json`;
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => port.putIfAbsent(key, `writer-${i}`)));
      const winners = results.flatMap((r, i) => (r === 'created' ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r === 'exists')).toHaveLength(19);
      expect((await port.get(key))!.toString()).toBe(`writer-${winners[0]}`);
    }
  });

  it('a streamed put of 12 MB (multipart on S3) stores every byte', async () => {
    const { stream, sha256 } = chunked(12 * 1024 * 1024 + 12345, 3);
    const key = 'originals/big/streamed.tif';
    await port.put(key, stream, { contentType: 'image/tiff' });
    const info = (await port.head(key))!;
    expect(info.size).toBe(12 * 1024 * 1024 + 12345);
    // S3 names a multipart object's ETag by its part count: 5 MiB parts make three.
    if (port.kind === 's3') expect(info.etag).toMatch(/-3"$/);
    const back = await port.get(key);
    expect(createHash('sha256').update(back!).digest('hex')).toBe(sha256);
  }, 120_000);

  it("url(): the desk's URL downloads the object's bytes", async () => {
    const key = renditionKey(SHA, 'preview.jpg');
    const body = randomBytes(20_000);
    await port.put(key, body, { contentType: 'image/jpeg' });
    const got = await subject.readUrl(await port.url(key, { expiresInSeconds: 60 }));
    expect(got.equals(body)).toBe(true);
  });

  it('refuses keys that could leave the store or alias another key, before any I/O', async () => {
    for (const bad of [
      '../etc/passwd',
      '/abs/key',
      'a//b',
      'a/./b',
      'a/../b',
      'trailing/',
      'back\\slash',
      '',
      'nul\u0000byte',
    ]) {
      await expect(port.put(bad, 'x')).rejects.toThrow(/refusing storage key/);
      await expect(port.get(bad)).rejects.toThrow(/refusing storage key/);
    }
  });
}

describe('storage port contract: local directory', () => {
  contract(localSubject());
});

rgw.describe('storage port contract: S3 on a real Ceph RGW', () => {
  // Hooks run in the order they are declared: start before the contract's own, stop after its cleanup.
  beforeAll(rgw.start, 600_000);
  contract(s3Subject());
  afterAll(rgw.stop, 60_000);
});
