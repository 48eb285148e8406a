import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { Job, Queue } from 'bullmq';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { S3Storage } from '../../src/adapters/storage/s3Storage';
import { createRedis } from '../../src/adapters/redis/connection';
import { QUEUES, jobIds, queuePrefix } from '../../src/queues/definitions';
import { photoVariants } from '../helpers/corpus';
import { CliProcess, startWorker, type Exit } from '../helpers/processes';
import { createBucket, dropBucket, s3Storage, uniqueBucket } from '../helpers/s3Bucket';
import { cephRgw, type S3Env } from '../helpers/services';
import { deletePrefix, makeTmpDir, redisEnv, removeDir, testRedisUrl, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Several machines, tested on one: two `photowire worker` processes, each with its own
 * scratch PHOTOWIRE_DATA_DIR, sharing nothing but Redis (a key prefix of their own) and one Ceph
 * RGW bucket (PHOTOWIRE_STORAGE=s3://...). The photos come from an "agency" on 127.0.0.1 (the
 * manifest names them by URL), so no worker reads a file another process wrote. A third process
 * ingests the manifest (`ingest --wait`), a fourth serves the desk (`serve`), and the test reads
 * the batch through the desk's API and fetches renditions through it (the 302 to a presigned URL
 * followed). Then the same feed again with one machine `kill -9`ed mid-batch: the other finishes it.
 *
 * Checked: every item one record; each photo's original, renditions and manifest once in the
 * bucket (listed by prefix: per sha256 exactly the expected keys, nothing else, no unfinished
 * multipart upload); every record names objects that exist, with their sizes.
 */
jest.setTimeout(scaledMs(300_000));

const rgw = cephRgw();
const PHOTOS = 230; // distinct photos
const ITEMS = 240; // the last 10 items resend earlier photos under another URL
const CAPTIONS = 180; // items 180..239 repeat earlier captions
// A killed worker's jobs are taken again once their lock has expired and the next stall check
// runs (stalledInterval = min(30 s, lock)): 2 x 5 s at most here; the default lock is 120 s.
const LOCK_MS = 5000;

const PLACES = ['Lisbon', 'Izmir', 'Valencia', 'Brussels', 'Lofoten', 'Nairobi', 'Osaka', 'Quito', 'Tbilisi', 'Hobart'];
const caption = (i: number) =>
  `Photo ${i % CAPTIONS}: crowds gather in ${PLACES[i % PLACES.length]} on day ${(i % CAPTIONS) + 1} of the festival as rain clears over the old town (wire ${i % CAPTIONS}).`;

interface Lane {
  label: string;
  prefix: string;
  storage: S3Storage;
  env: Record<string, string>;
  procs: CliProcess[];
  dirs: string[];
}

interface ApiRecord {
  id: string;
  index: number;
  error: { code: string } | null;
  image: { sha256: string; original: string; bytes: number } | null;
  renditions: Array<{ name: string; path: string; bytes: number }>;
}

rgw.describe('two worker machines with no shared disk: only Redis and an S3 bucket (Ceph RGW)', () => {
  const bucket = uniqueBucket('machines');
  const feeds = makeTmpDir('machines-feed');
  const lanes: Lane[] = [];
  let s3: S3Env;
  let agency: http.Server;
  let agencyHost = '';
  let photos: Buffer[] = [];
  const served = new Map<string, Buffer>();
  const manifest = path.join(feeds, 'wire.ndjson');

  beforeAll(async () => {
    await rgw.start();
    s3 = rgw.env();
    await createBucket(s3, bucket);
    photos = await photoVariants(PHOTOS, 480, 320, 13);
    for (let i = 0; i < ITEMS; i++)
      served.set(`/wire/p${String(i).padStart(4, '0')}.jpg`, photos[i < PHOTOS ? i : i - PHOTOS]);
    agency = http.createServer((req, res) => {
      const body = served.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end('no such photo');
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(body.length) }).end(body);
    });
    await new Promise<void>((resolve) => agency.listen(0, '127.0.0.1', resolve));
    agencyHost = `127.0.0.1:${(agency.address() as AddressInfo).port}`;
    // The ingesting machine's own file: a manifest naming each photo by URL.
    const lines = [...served.keys()].map((url, i) =>
      JSON.stringify({ id: `wire-${i}`, caption: caption(i), credit: 'AFP', image: `http://${agencyHost}${url}` }),
    );
    writeFileSync(manifest, lines.join('\n') + '\n');
  }, 600_000);

  afterAll(async () => {
    for (const lane of lanes) {
      await Promise.all(lane.procs.map((p) => p.stop()));
      await lane.storage.close();
      await deletePrefix(lane.prefix);
      for (const d of lane.dirs) removeDir(d);
    }
    await new Promise((r) => agency?.close(r));
    if (s3) await dropBucket(s3, bucket);
    await rgw.stop();
    removeDir(feeds);
  }, 120_000);

  /** One deployment: a Redis prefix and a bucket prefix of its own, the same settings for every process. */
  function lane(label: string): Lane {
    const prefix = uniquePrefix(`machines-${label}`);
    const target = `s3://${bucket}/${label}`;
    const l: Lane = {
      label,
      prefix,
      storage: s3Storage(s3, target),
      env: {
        // The single Redis, or the cluster under PHOTOWIRE_TEST_REDIS=cluster (test/helpers/testEnv.ts).
        ...redisEnv(),
        PHOTOWIRE_PREFIX: prefix,
        PHOTOWIRE_STORAGE: target,
        ...(s3 as unknown as Record<string, string>),
        PHOTOWIRE_FETCH_ALLOW: agencyHost,
        PHOTOWIRE_LOCK_MS: String(LOCK_MS),
      },
      procs: [],
      dirs: [],
    };
    lanes.push(l);
    return l;
  }

  /** A "machine": a process with its own scratch folder as PHOTOWIRE_DATA_DIR. */
  function machineEnv(l: Lane, name: string): Record<string, string> {
    const dir = makeTmpDir(`machines-${l.label}-${name}`);
    l.dirs.push(dir);
    return { ...l.env, PHOTOWIRE_DATA_DIR: dir };
  }

  async function worker(l: Lane, name: string): Promise<CliProcess> {
    // Not startReadyWorker's 20 s: with eight suites on two cores a worker's start (Node, Redis,
    // the bucket check) once took longer.
    const w = startWorker({ ...machineEnv(l, name), LOG_LEVEL: 'info' }, 2);
    l.procs.push(w);
    await w.waitForLogs((e) => e.msg === 'worker ready', 1, 90_000, '"worker ready"');
    return w;
  }

  function ingest(l: Lane): CliProcess {
    const p = CliProcess.start(['ingest', manifest, '--wait', '--json'], {
      ...machineEnv(l, 'ingest'),
      LOG_LEVEL: 'warn',
    });
    l.procs.push(p);
    return p;
  }

  async function desk(l: Lane): Promise<string> {
    const p = CliProcess.start(['serve', '--port', '0'], machineEnv(l, 'desk'));
    l.procs.push(p);
    const [ready] = await p.waitForLogs((e) => e.msg === 'desk ready', 1, 60_000, '"desk ready"');
    return String(ready.url);
  }

  async function ingested(p: CliProcess): Promise<{ batchId: string; exit: Exit }> {
    const exit = await p.exited;
    if (exit.code !== 0) throw new Error(`ingest --wait exited ${exit.code}: ${p.stdout.slice(-1500)}\n${p.tail()}`);
    const out = JSON.parse(p.stdout) as {
      feeds: Array<{ batchId: string; expected: number }>;
      batches: Array<{ ok: number; failed: number }>;
    };
    expect(out.feeds).toHaveLength(1);
    expect(out.feeds[0].expected).toBe(ITEMS);
    expect(out.batches[0]).toMatchObject({ ok: ITEMS, failed: 0 });
    return { batchId: out.feeds[0].batchId, exit };
  }

  /** The batch as the desk shows it: the ledger and every record, a page at a time. */
  async function readBatch(url: string, batchId: string): Promise<ApiRecord[]> {
    const batch = (await (await fetch(`${url}/api/batches/${batchId}`)).json()) as Record<string, unknown>;
    expect(batch).toMatchObject({ state: 'done' });
    const records: ApiRecord[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const res = await fetch(`${url}/api/batches/${batchId}/records?limit=100&offset=${offset}`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { total: number; records: ApiRecord[]; nextOffset: number | null };
      expect(page.total).toBe(ITEMS);
      records.push(...page.records);
      offset = page.nextOffset ?? null;
    }
    return records;
  }

  /** Every item exactly one record, each with its photo; and the bucket holds exactly their objects, once. */
  async function expectWhole(l: Lane, records: ApiRecord[], batchId: string): Promise<void> {
    expect(records).toHaveLength(ITEMS);
    expect(records.map((r) => r.index)).toEqual([...Array(ITEMS).keys()]);
    expect(new Set(records.map((r) => r.id)).size).toBe(ITEMS);
    for (const r of records) expect([r.id, r.error]).toEqual([r.id, null]);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const expectedShas = new Set(photos.map(sha));
    expect(new Set(records.map((r) => r.image!.sha256))).toEqual(expectedShas);

    const listed = new Map<string, number>();
    for await (const o of l.storage.list('')) {
      expect(listed.has(o.key)).toBe(false);
      listed.set(o.key, o.size);
    }
    // Per photo: the original, thumb, preview and the manifest, and nothing else anywhere (a batch
    // export under batches/<id>/ is allowed: the finalize job may keep it in storage).
    const perSha = new Map<string, string[]>();
    const other: string[] = [];
    for (const key of listed.keys()) {
      const m =
        /^(?:originals\/[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})\.jpg|renditions\/[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})\/[^/]+)$/.exec(
          key,
        );
      if (m) perSha.set(m[1] ?? m[2]!, [...(perSha.get(m[1] ?? m[2]!) ?? []), key]);
      else if (!key.startsWith(`batches/${batchId}/`)) other.push(key);
    }
    expect(other).toEqual([]);
    expect(new Set(perSha.keys())).toEqual(expectedShas);
    for (const [s, keys] of perSha) {
      const dir = `renditions/${s.slice(0, 2)}/${s.slice(2, 4)}/${s}`;
      expect(keys.sort()).toEqual(
        [
          `${dir}/preview.jpg`,
          `${dir}/renditions.json`,
          `${dir}/thumb.webp`,
          `originals/${s.slice(0, 2)}/${s.slice(2, 4)}/${s}.jpg`,
        ].sort(),
      );
    }
    // No upload left half-done (a multipart upload never completed is invisible to listing).
    const uploads = await l.storage.client.send(
      new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: `${l.label}/` }),
    );
    expect(uploads.Uploads ?? []).toEqual([]);
    // Records point at them, with their sizes.
    for (const r of records) {
      expect(listed.get(r.image!.original)).toBe(r.image!.bytes);
      expect(r.renditions.map((x) => x.name).sort()).toEqual(['preview', 'thumb']);
      for (const x of r.renditions) expect([x.path, listed.get(x.path)]).toEqual([x.path, x.bytes]);
    }
    // And no machine kept a photo of its own: the scratch folders hold no originals or renditions.
    for (const dir of l.dirs)
      for (const sub of ['originals', 'renditions'])
        expect([dir, sub, existsSync(path.join(dir, sub))]).toEqual([dir, sub, false]);
  }

  /** A few renditions through the desk: the redirect followed, the bytes the bucket's. */
  async function expectDeskServes(l: Lane, url: string, records: ApiRecord[]): Promise<void> {
    for (const r of [records[0], records[117], records[ITEMS - 1]]) {
      for (const x of r.renditions) {
        const route = `${url}/api/${x.path}`;
        const first = await fetch(route, { redirect: 'manual' });
        expect([route, first.status]).toEqual([route, 302]);
        const res = await fetch(route);
        expect(res.status).toBe(200);
        const body = Buffer.from(await res.arrayBuffer());
        expect(body.equals((await l.storage.get(x.path))!)).toBe(true);
        expect(body.length).toBe(x.bytes);
      }
    }
  }

  it('a feed of 240 photos over two machines: one record each, every rendition once in the bucket, the desk on a fourth process shows them', async () => {
    const l = lane('both');
    const [a, b, url] = await Promise.all([worker(l, 'a'), worker(l, 'b'), desk(l)]);
    const t0 = Date.now();
    const { batchId } = await ingested(ingest(l));
    const tookMs = Date.now() - t0;
    // Both machines took part.
    expect(a.itemsDone().length).toBeGreaterThan(0);
    expect(b.itemsDone().length).toBeGreaterThan(0);
    expect(new Set([...a.itemsDone(), ...b.itemsDone()]).size).toBe(ITEMS);
    const records = await readBatch(url, batchId);
    await expectWhole(l, records, batchId);
    await expectDeskServes(l, url, records);
    process.stderr.write(
      `machines: ${ITEMS} items on two workers in ${(tookMs / 1000).toFixed(1)} s (a ${a.itemsDone().length}, b ${b.itemsDone().length})\n`,
    );
  });

  it('kill -9 of one machine mid-batch: the other finishes it, nothing lost or doubled', async () => {
    const l = lane('kill');
    const [a, b, url] = await Promise.all([worker(l, 'a'), worker(l, 'b'), desk(l)]);
    const ing = ingest(l);
    const redis = createRedis(testRedisUrl());
    const queue = new Queue(QUEUES.item, { connection: redis, prefix: queuePrefix(l.prefix) });
    try {
      // Some items done by A, and A busy with others.
      await a.waitForLogs((e) => e.msg === 'item done', 20, 120_000, 'items done by A');
      const active = await queue.getActiveCount();
      a.signal('SIGKILL');
      const killed = await a.exited;
      expect(killed.signal).toBe('SIGKILL');
      expect(active).toBeGreaterThan(0);
      const doneByA = new Set(a.itemsDone());
      expect(doneByA.size).toBeLessThan(ITEMS);

      const { batchId } = await ingested(ing);
      const records = await readBatch(url, batchId);
      await expectWhole(l, records, batchId);
      await expectDeskServes(l, url, records);

      // The jobs A held were stalled and taken again by B: each stalled item done by B.
      const stalled: Array<{ itemId: string; job: Job }> = [];
      for (const r of records) {
        const job = await Job.fromId(queue, jobIds.item(r.id));
        if (job && job.stalledCounter > 0) stalled.push({ itemId: r.id, job });
      }
      expect(stalled.length).toBeGreaterThan(0);
      const doneByB = b.itemsDone();
      for (const s of stalled) expect([s.itemId, doneByB.includes(s.itemId)]).toEqual([s.itemId, true]);
      // Between them every item; an item A stored in the instant before the kill without its log line is in neither list but has its record.
      expect(new Set([...doneByA, ...doneByB]).size).toBeGreaterThanOrEqual(ITEMS - 2);
      // How long the dead machine's items waited: from the kill to B finishing the first of them.
      // (Under heavy load B's own lock can lapse too: such an item stalls and is done again before
      // the kill; only stalled items B finished after the kill are A's.)
      const stalledIds = new Set(stalled.map((s) => s.itemId));
      const retaken = b.logs
        .filter((e) => e.msg === 'item done' && stalledIds.has(String(e.itemId)) && Number(e.time) >= killed.at)
        .map((e) => Number(e.time));
      expect(retaken.length).toBeGreaterThan(0);
      const recoveryMs = Math.min(...retaken) - killed.at;
      expect(recoveryMs).toBeLessThan(4 * LOCK_MS + scaledMs(20_000));
      process.stderr.write(
        `machines: kill -9 after A did ${doneByA.size} items (${active} in flight on both); ${stalled.length} stalled job(s) taken again by B, the first done ${(recoveryMs / 1000).toFixed(1)} s after the kill (PHOTOWIRE_LOCK_MS=${LOCK_MS})\n`,
      );
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });
});
