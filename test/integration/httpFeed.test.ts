import { loadHttpFeed } from '../../src/adapters/http/loadHttpFeed';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestPipeline } from '../helpers/pipeline';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { createRedis } from '../../src/adapters/redis/connection';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { fetchBytes, type FetchLimits } from '../../src/adapters/http/fetchUrl';
import { Scheduler } from '../../src/app/jobs/scheduler';
import { scaledMs } from '../helpers/deadline';

const FIXTURES = path.resolve(__dirname, '../fixtures/feeds');
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
    await sleep(100);
  }
}

/** A wire agency on 127.0.0.1: a feed, its photo, and the ways downloads go wrong. */
class Agency {
  readonly hits = new Map<string, number>();
  g2 = readFileSync(path.join(FIXTURES, 'newsml-g2-picture.xml'), 'utf8');
  private server!: http.Server;
  port = 0;
  constructor(readonly photo: Buffer) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  count(p: string): number {
    return this.hits.get(p) ?? 0;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const url = req.url ?? '/';
      const n = this.count(url) + 1;
      this.hits.set(url, n);
      switch (url) {
        case '/feeds/g2.xml':
          return void res.writeHead(200, { 'content-type': 'application/xml' }).end(this.g2);
        case '/feeds/photo.jpg':
          return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(this.photo);
        case '/feeds/manifest.json':
          return void res.writeHead(200).end(JSON.stringify([{ caption: 'x', image: 'photo.jpg' }]));
        case '/hang':
          return; // never answers
        case '/big':
          res.writeHead(200, { 'content-length': String(5_000_000) });
          return void res.write(Buffer.alloc(1000));
        case '/big-chunked': {
          res.writeHead(200);
          const chunk = Buffer.alloc(64 * 1024);
          let sent = 0;
          const push = () => {
            while (sent < 2_000_000 && res.write(chunk)) sent += chunk.length;
            if (sent < 2_000_000) res.once('drain', push);
            else res.end();
          };
          return push();
        }
        case '/flaky':
          return void (n <= 2 ? res.writeHead(503).end('busy') : res.writeHead(200).end('finally'));
        case '/redirect-in':
          return void res.writeHead(302, { location: '/feeds/photo.jpg' }).end();
        case '/redirect-out':
          return void res.writeHead(302, { location: `http://localhost:${this.port}/feeds/photo.jpg` }).end();
        default:
          return void res.writeHead(404).end('not here');
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('HTTP feeds (a local server on 127.0.0.1)', () => {
  let agency: Agency;
  let p: TestPipeline;
  const dirs: string[] = [];

  beforeAll(async () => {
    agency = new Agency(await syntheticPhoto({ width: 1200, height: 800, seed: 42 }));
    await agency.start();
    p = await TestPipeline.start({ overrides: { PHOTOWIRE_FETCH_ALLOW: `127.0.0.1:${agency.port}` } });
  });
  afterAll(async () => {
    await p.close();
    await agency.stop();
    for (const d of dirs) removeDir(d);
  });

  describe('downloads', () => {
    const limits = (over: Partial<FetchLimits> = {}): FetchLimits => ({
      allow: [`127.0.0.1:${agency.port}`],
      timeoutMs: 5000,
      retries: 2,
      maxBytes: 10_000_000,
      what: 'feed',
      backoffBaseMs: 20,
      ...over,
    });

    it('a host outside the allow-list is refused before any connection', async () => {
      const before = agency.count('/feeds/photo.jpg');
      await expect(fetchBytes(`${agency.base}/feeds/photo.jpg`, limits({ allow: [] }))).rejects.toMatchObject({
        code: 'FETCH_REFUSED',
        message: expect.stringContaining('PHOTOWIRE_FETCH_ALLOW is empty'),
      });
      await expect(
        fetchBytes(`${agency.base}/feeds/photo.jpg`, limits({ allow: ['127.0.0.1:1'] })),
      ).rejects.toMatchObject({ code: 'FETCH_REFUSED' });
      expect(agency.count('/feeds/photo.jpg')).toBe(before);
    });

    it('a redirect is followed only to an allowed host', async () => {
      expect(sha((await fetchBytes(`${agency.base}/redirect-in`, limits())).bytes)).toBe(sha(agency.photo));
      await expect(fetchBytes(`${agency.base}/redirect-out`, limits())).rejects.toMatchObject({
        code: 'FETCH_REFUSED',
        message: expect.stringContaining(`host localhost:${agency.port} is not in PHOTOWIRE_FETCH_ALLOW`),
      });
    });

    it('a server that does not answer times out, is retried with backoff, then fails clearly', async () => {
      const started = Date.now();
      await expect(fetchBytes(`${agency.base}/hang`, limits({ timeoutMs: 300, retries: 1 }))).rejects.toMatchObject({
        code: 'FETCH_FAILED',
        message: expect.stringMatching(
          /\/hang: no complete answer within 300 ms \(PHOTOWIRE_FETCH_TIMEOUT_MS\) \(2 attempts\)/,
        ),
      });
      expect(agency.count('/hang')).toBe(2);
      expect(Date.now() - started).toBeLessThan(scaledMs(10_000));
    });

    it('a 503 is retried until it succeeds; a 404 is not retried', async () => {
      expect((await fetchBytes(`${agency.base}/flaky`, limits())).bytes.toString()).toBe('finally');
      expect(agency.count('/flaky')).toBe(3);
      await expect(fetchBytes(`${agency.base}/nothing`, limits())).rejects.toMatchObject({
        code: 'FETCH_FAILED',
        message: expect.stringContaining('HTTP 404'),
      });
      expect(agency.count('/nothing')).toBe(1);
    });

    it('the size cap holds whether the server declares the size or not', async () => {
      await expect(fetchBytes(`${agency.base}/big`, limits({ maxBytes: 100_000 }))).rejects.toMatchObject({
        code: 'FEED_TOO_LARGE',
        message: expect.stringContaining('PHOTOWIRE_MAX_FEED_MB'),
      });
      await expect(
        fetchBytes(`${agency.base}/big-chunked`, limits({ maxBytes: 500_000, what: 'image' })),
      ).rejects.toMatchObject({
        code: 'IMAGE_TOO_LARGE',
        message: expect.stringContaining('PHOTOWIRE_MAX_FILE_MB'),
      });
    });
  });

  it('a schedule reads a NewsML-G2 feed by URL, the item worker downloads the photo, and only new versions are taken again', async () => {
    const s = new Scheduler(p.rt);
    try {
      const url = `${agency.base}/feeds/g2.xml`;
      await s.upsert({ name: 'agency-web', cron: '0 0 2 * * *', source: url });
      await s.startWorker(createRedis(p.rt.redisHandle.url, { forWorker: true }));
      const run = async () => {
        const id = await s.runNow('agency-web');
        return waitFor('the run', async () => {
          const r = await s.runner.runs.get(id);
          return r && r.state !== 'running' && r;
        });
      };

      const first = await run();
      expect(first).toMatchObject({ state: 'done', files: 1, items: 1, ok: 1, failed: 0, source: url });
      const [rec] = await p.rt.ctx.catalog.getRecords(first.batchId!);
      expect(rec.error).toBeNull();
      expect(rec.source.file).toBe(url);
      expect(rec.image!.sha256).toBe(sha(agency.photo));
      expect(rec).toMatchObject({
        agencyId: 'tag:nwp.example,2012:NWP0042',
        agencyVersion: '3',
        headline: 'Rain delays final at Wimbledon',
      });
      expect(agency.count('/feeds/photo.jpg')).toBeGreaterThanOrEqual(1);

      const second = await run();
      expect(second).toMatchObject({
        state: 'empty',
        note: expect.stringMatching(
          /^nothing new: the feed's 1 item\(s\) were all taken before; next check (\d{4}-\d\d-\d\d )?\d\d:\d\d$/,
        ),
      });

      agency.g2 = agency.g2
        .replace('version="3"', 'version="4"')
        .replace('Rain delays final at Wimbledon', 'Rain stops play in Wimbledon final');
      const third = await run();
      expect(third).toMatchObject({ state: 'done', items: 1, ok: 1 });
      const [v4] = await p.rt.ctx.catalog.getRecords(third.batchId!);
      expect(v4).toMatchObject({ agencyVersion: '4', headline: 'Rain stops play in Wimbledon final' });
    } finally {
      await s.remove('agency-web');
      await s.close();
    }
  });

  it('anything else is refused with a clear error: hosts off the list, photos on other hosts (JSON manifests by URL are read)', async () => {
    const s = new Scheduler(p.rt);
    try {
      await expect(
        s.upsert({ name: 'elsewhere', every: 60_000, source: `http://localhost:${agency.port}/feeds/g2.xml` }),
      ).rejects.toThrow(/schedule elsewhere: .*host localhost:\d+ is not in PHOTOWIRE_FETCH_ALLOW/);
      // A JSON manifest by URL is a feed like the others: its image paths resolve against its URL.
      const fed = await loadHttpFeed(`${agency.base}/feeds/manifest.json`, p.rt.config);
      expect(fed.items.map((i) => [i.captionRaw, i.image, i.error])).toEqual([
        ['x', `${agency.base}/feeds/photo.jpg`, undefined],
      ]);
    } finally {
      await s.close();
    }

    // A local feed naming a photo on a host that is not allowed: the item fails, nothing is fetched.
    const dir = makeTmpDir('feed');
    dirs.push(dir);
    const elsewhere = `http://localhost:${agency.port}/feeds/photo.jpg`;
    const before = agency.count('/feeds/photo.jpg');
    writeFileSync(path.join(dir, 'g2.xml'), agency.g2.replace('href="photo.jpg"', `href="${elsewhere}"`));
    const [o] = await p.ingest([path.join(dir, 'g2.xml')]);
    const [rec] = await p.rt.ctx.catalog.getRecords(o.batchId!);
    expect(rec.error).toMatchObject({ code: 'FETCH_REFUSED', message: expect.stringContaining(elsewhere) });
    expect(agency.count('/feeds/photo.jpg')).toBe(before);
  });
});
