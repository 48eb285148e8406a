import { Queues } from '../../src/queues/queues';
import { Job, Queue } from 'bullmq';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { TestPipeline } from '../helpers/pipeline';
import { REPO_ROOT, WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import { waitUntil } from '../helpers/processes';
import { queueKillWebhook } from '../../src/app/killWebhook';
import { QUEUES, jobIds, queuePrefix } from '../../src/queues/definitions';
import { scaledMs } from '../helpers/deadline';

/**
 * PHOTOWIRE_KILL_WEBHOOK is delivered as a BullMQ job (QUEUES.killWebhook): a CMS that fails twice
 * gets the POST a third time and it is delivered once; the same kill queued again sends nothing
 * more (job id from the kill id); a host not in PHOTOWIRE_FETCH_ALLOW gets no request at all.
 */
jest.setTimeout(scaledMs(120_000));

const FIX = path.join(REPO_ROOT, 'test/fixtures/kills');

describe('the kill webhook, durably retried', () => {
  let server: Server;
  let url: string;
  let host: string;
  const requests: Array<{
    status: number;
    body: { type: string; kill: { id: string; items: string[]; targets: string[] } };
    killHeader: string | undefined;
  }> = [];
  let p: TestPipeline;
  let root: string;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (d) => (body += String(d)));
      req.on('end', () => {
        const status = requests.length < 2 ? 503 : 200;
        requests.push({
          status,
          body: JSON.parse(body),
          killHeader: req.headers['x-photowire-kill'] as string | undefined,
        });
        res.writeHead(status).end(status === 200 ? 'ok' : 'try later');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    url = `http://${host}/cms/unpublish`;
    root = makeTmpDir('kill-webhook');
    p = await TestPipeline.start({
      overrides: { PHOTOWIRE_KILL_WEBHOOK: url, PHOTOWIRE_FETCH_ALLOW: host, PHOTOWIRE_FETCH_RETRIES: '3' },
    });
  });
  afterAll(async () => {
    await p.close();
    await new Promise((r) => server.close(r));
    removeDir(root);
  });

  it('a CMS failing twice: three requests, one delivery, and the same kill queued again sends nothing more', async () => {
    const a = path.join(root, 'a');
    mkdirSync(a);
    copyFileSync(path.join(WIRE_IMAGES, 'getty.jpg'), path.join(a, 'LON805.jpg'));
    // AP's LON805 (the notice below is AP's; a reference is an id of its provider)
    const caption = 'Protesters march through the city centre. (AP Photo/Staff)';
    execFileSync('exiftool', [
      '-q',
      '-overwrite_original',
      '-IPTC:OriginalTransmissionReference=LON805',
      '-IPTC:Credit=AP',
      `-IPTC:Caption-Abstract=${caption}`,
      `-XMP-dc:Description=${caption}`,
      `-EXIF:ImageDescription=${caption}`,
      path.join(a, 'LON805.jpg'),
    ]);
    const [photo] = await p.ingest([a]);
    const b = path.join(root, 'b');
    mkdirSync(b);
    copyFileSync(path.join(FIX, 'ap-mandatory-kill.ndjson'), path.join(b, 'ap-mandatory-kill.ndjson'));
    await p.ingest([path.join(b, 'ap-mandatory-kill.ndjson')]);

    const [kill] = await p.rt.ctx.kills.list(0);
    const queue = new Queue(QUEUES.killWebhook, { connection: p.rt.redis, prefix: queuePrefix(p.config.prefix) });
    try {
      const jobId = jobIds.killWebhook(kill.id);
      await waitUntil(
        async () => (await Job.fromId(queue, jobId))?.finishedOn !== undefined,
        30_000,
        'the webhook job to finish',
      );
      const job = (await Job.fromId(queue, jobId))!;
      expect(await job.getState()).toBe('completed');
      expect(job.attemptsMade).toBe(3);
      expect(requests.map((r) => r.status)).toEqual([503, 503, 200]);
      const itemId = `${photo.batchId}-0001`;
      for (const r of requests) {
        expect(r.killHeader).toBe(kill.id);
        expect(r.body).toMatchObject({
          type: 'photowire.kill',
          kill: { id: kill.id, targets: ['LON805'], items: [itemId] },
        });
      }

      // the notice read again (a retry, a re-ingest) queues the same job id: nothing is sent again
      expect(await queueKillWebhook({ ...p.rt.ctx, logger: p.rt.logger }, kill)).toMatchObject({
        state: 'queued',
        jobId,
      });
      await new Promise((r) => setTimeout(r, 2500));
      expect(requests).toHaveLength(3);
    } finally {
      await queue.close();
    }
  });

  it('a host not in PHOTOWIRE_FETCH_ALLOW: no job, no request, the reason logged', async () => {
    const [kill] = await p.rt.ctx.kills.list(0);
    const before = requests.length;
    const warnings: Array<{ obj: unknown; msg: string }> = [];
    const logger = { warn: (obj: object, msg: string) => void warnings.push({ obj, msg }) };
    const config = { ...p.rt.ctx.config, fetchAllow: ['cms.example.com'], prefix: `${p.config.prefix}-refused` };
    const queues = new Queues(p.rt.redis, config.prefix);
    const out = await queueKillWebhook({ queues, config, logger }, kill).finally(() => queues.close());
    expect(out).toEqual({
      state: 'refused',
      jobId: null,
      error: expect.stringContaining(`host ${host} is not in PHOTOWIRE_FETCH_ALLOW (allowed: cms.example.com)`),
    });
    expect(warnings).toEqual([
      { obj: expect.objectContaining({ killId: kill.id, code: 'FETCH_REFUSED' }), msg: out.error },
    ]);
    const queue = new Queue(QUEUES.killWebhook, { connection: p.rt.redis, prefix: queuePrefix(config.prefix) });
    try {
      expect(await queue.getJobCounts()).toMatchObject({ waiting: 0, delayed: 0, completed: 0, failed: 0 });
    } finally {
      await queue.close();
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(requests).toHaveLength(before);
  });
});
