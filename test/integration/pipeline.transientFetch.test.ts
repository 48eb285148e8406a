import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Job, Queue } from 'bullmq';
import { batchIdFor } from '../../src/core/ids';
import { QUEUES, jobIds, queuePrefix } from '../../src/queues/definitions';
import { enqueueFeed } from '../../src/queues/enqueueFeed';
import { loadHttpFeed } from '../../src/adapters/http/loadHttpFeed';
import { TestPipeline } from '../helpers/pipeline';
import { waitUntil } from '../helpers/processes';
import { WIRE_IMAGES } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * An image host that is down for a moment: the photo's download fails twice (a 503,
 * then a reset connection), then the host answers. The download is tried once per attempt of the
 * item's job and the job is retried by BullMQ's attempts/backoff, not by a loop inside the fetch:
 * the item ends as a photo after three requests and three attempts. A 404 is not retried.
 */
jest.setTimeout(scaledMs(120_000));

describe('a transient image download failure retries through BullMQ', () => {
  const photo = readFileSync(path.join(WIRE_IMAGES, 'pa.jpg'));
  const hits = new Map<string, number>();
  let server: http.Server;
  let base: string;
  let p: TestPipeline;
  let queue: Queue;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = req.url ?? '';
      const n = (hits.get(url) ?? 0) + 1;
      hits.set(url, n);
      if (url === '/feed.csv') {
        res.setHeader('content-type', 'text/csv');
        res.end(
          [
            'ID,Caption,Image',
            'flaky,"A photo from a host that is down for a moment",img/flaky.jpg',
            'gone,"A photo that is not there",img/gone.jpg',
          ].join('\n') + '\n',
        );
        return;
      }
      if (url === '/img/gone.jpg') {
        res.statusCode = 404;
        res.end('not found');
        return;
      }
      if (n === 1) {
        res.statusCode = 503;
        res.end('down for maintenance');
        return;
      }
      if (n === 2) return req.socket.resetAndDestroy();
      res.setHeader('content-type', 'image/jpeg');
      res.end(photo);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Inner retries set high on purpose: an image download must not use them (the feed's does).
    p = await TestPipeline.start({
      overrides: {
        PHOTOWIRE_FETCH_ALLOW: '127.0.0.1',
        PHOTOWIRE_ATTEMPTS: '4',
        PHOTOWIRE_FETCH_RETRIES: '5',
        PHOTOWIRE_FETCH_TIMEOUT_MS: '5000',
      },
    });
    queue = new Queue(QUEUES.item, { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) });
  });
  afterAll(async () => {
    await queue?.close();
    await p?.close();
    await new Promise((r) => server.close(r));
  });

  it('fails twice, then the host answers: the item is a photo, its job took three attempts; a 404 fails once', async () => {
    const feed = await loadHttpFeed(`${base}/feed.csv`, p.config);
    const batchId = batchIdFor(feed.url, createHash('sha256').update(JSON.stringify(feed.items)).digest('hex'));
    await enqueueFeed(
      { catalog: p.rt.ctx.catalog, flow: p.rt.flow, prefix: p.config.prefix, attempts: p.config.attempts },
      {
        batchId,
        feedPath: feed.url,
        root: feed.url,
        format: feed.format,
        items: feed.items,
        article: feed.article,
        warnings: feed.warnings,
      },
    );
    await waitUntil(
      async () => (await p.rt.ctx.catalog.getBatch(batchId))?.state === 'done',
      60_000,
      'the batch to end',
    );

    const records = new Map((await p.rt.ctx.catalog.getRecords(batchId)).map((r) => [r.agencyId, r]));
    const flaky = records.get('flaky')!;
    expect(flaky.error).toBeNull();
    expect(flaky.image!.sha256).toBe(createHash('sha256').update(photo).digest('hex'));
    expect(flaky.renditions.map((r) => r.name).sort()).toEqual(['preview', 'thumb']);
    // one request per attempt: 503, reset, 200 (PHOTOWIRE_FETCH_RETRIES=5 did not multiply them)
    expect(hits.get('/img/flaky.jpg')).toBe(3);
    const job = (await Job.fromId(queue, jobIds.item(flaky.id)))!;
    expect(job.attemptsStarted).toBe(3);
    expect(await job.getState()).toBe('completed');

    // a 404 is permanent: one request, one attempt, FETCH_FAILED naming the URL
    const gone = records.get('gone')!;
    expect(gone.error).toEqual({ code: 'FETCH_FAILED', message: `${base}/img/gone.jpg: HTTP 404 Not Found` });
    expect(hits.get('/img/gone.jpg')).toBe(1);
    const [failed] = await p.rt.ctx.catalog.getFailed(batchId);
    expect(failed).toMatchObject({ code: 'FETCH_FAILED', attempts: 1 });
    expect(await (await Job.fromId(queue, jobIds.item(gone.id)))!.getState()).toBe('failed');
  });
});
