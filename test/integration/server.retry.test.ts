import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Job, Queue } from 'bullmq';
import { startDesk, type Desk } from '../helpers/deskServer';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { jobIds, QUEUES, queuePrefix } from '../../src/queues/definitions';
import { retryItems } from '../../src/app/batches/retryItems';
import { batchDetailSchema, retryOutcomeSchema } from '../../src/schemas/api';
import { BROKEN_NAME, repairPhoto, writeDeskPhotoFeed } from '../browser/deskFixture';

describe('retrying failed items (retryItems and the API, real Redis and workers)', () => {
  let desk: Desk;
  let feedDir: string;
  let batchId: string;
  let brokenId: string;

  const post = async (p: string) => {
    const res = await desk.fetch(p, { method: 'POST' });
    return { status: res.status, body: (await res.json()) as any };
  };
  // From the pipeline's storage (local or, in the matrix's s3 mode, the bucket).
  const ndjson = async () =>
    (await desk.p.readStored(`batches/${batchId}/records.ndjson`))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const waitDone = () => waitForBatches(desk.p.rt, [batchId], { progress: false, timeoutMs: 60_000 });

  beforeAll(async () => {
    feedDir = makeTmpDir('retryfeed');
    await writeDeskPhotoFeed(feedDir);
    desk = await startDesk();
    const [o] = await desk.p.ingest([feedDir]);
    batchId = o.batchId!;
    brokenId = `${batchId}-0006`;
  });
  afterAll(async () => {
    await desk?.close();
    removeDir(feedDir);
  });

  it('starts with the truncated photo failed, in the ledger and in records.ndjson', async () => {
    expect(await desk.p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', ok: 5, failed: 1 });
    expect((await ndjson())[5]).toMatchObject({ id: brokenId, error: { code: 'IMAGE_CORRUPT' } });
  });

  it('retries a still-broken item: it runs again and fails again, with a new failure time', async () => {
    const before = (await desk.p.rt.ctx.catalog.getFailed(batchId))[0];
    const res = await post(`/api/items/${brokenId}/retry`);
    expect(res.status).toBe(202);
    expect(retryOutcomeSchema.parse(res.body)).toMatchObject({
      batchId,
      retried: [brokenId],
      pending: [],
      skipped: [],
    });
    // Reopened until the retry's finalize job has run.
    const during = await desk.p.rt.ctx.catalog.getBatch(batchId);
    expect(during?.state === 'running' || during?.state === 'done').toBe(true);
    await waitDone();
    const after = (await desk.p.rt.ctx.catalog.getFailed(batchId))[0];
    expect(after.code).toBe('IMAGE_CORRUPT');
    expect(after.at > before.at).toBe(true);
    expect(await desk.p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', ok: 5, failed: 1 });
  });

  it('adds one retry for a double click: the second call finds it already queued', async () => {
    // No workers pick it up while we look: pause the item queue.
    const queue = new Queue(QUEUES.item, { connection: desk.p.rt.redis, prefix: queuePrefix(desk.p.config.prefix) });
    try {
      await queue.pause();
      const [a, b] = await Promise.all([retryItems(desk.p.rt, brokenId), retryItems(desk.p.rt, brokenId)]);
      expect([...a!.retried, ...b!.retried]).toEqual([brokenId]);
      expect([...a!.pending, ...b!.pending]).toEqual([brokenId]);
      const third = await post(`/api/batches/${batchId}/retry`);
      expect(third.body).toMatchObject({ retried: [], pending: [brokenId], finalizeJobId: null });
      const detail = batchDetailSchema.parse(await (await desk.fetch(`/api/batches/${batchId}`)).json());
      expect(detail.state).toBe('running');
      expect(detail.failures).toEqual([expect.objectContaining({ itemId: brokenId, retrying: true })]);
    } finally {
      await queue.resume();
      await queue.close();
    }
    await waitDone();
  });

  it('retries the whole batch once the file is fixed: ledger, records and records.ndjson move to ok', async () => {
    writeFileSync(path.join(feedDir, BROKEN_NAME), await repairPhoto());
    const res = await post(`/api/batches/${batchId}/retry`);
    expect(res.body).toMatchObject({ retried: [brokenId], skipped: [] });
    expect(res.body.finalizeJobId).toMatch(new RegExp(`^batch-${batchId}-retry-[0-9a-f]{12}$`));
    await waitDone();
    expect(await desk.p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'done', ok: 6, failed: 0 });
    expect(await desk.p.rt.ctx.catalog.getFailed(batchId)).toEqual([]);
    const rec = (await ndjson())[5];
    expect(rec).toMatchObject({ id: brokenId, error: null, credit: { creators: ['Remko de Waal'], agency: 'ANP' } });
    expect(rec.renditions.map((r: { name: string }) => r.name)).toEqual(['thumb', 'preview']);
    const summary = JSON.parse((await desk.p.readStored(`batches/${batchId}/summary.json`)).toString('utf8'));
    expect(summary).toMatchObject({ ok: 6, failed: 0, photos: 6, failures: [] });
  });

  it('says why when there is nothing to retry, and 404s what does not exist', async () => {
    const ok = await post(`/api/items/${batchId}-0001/retry`);
    expect(ok.body).toMatchObject({
      retried: [],
      skipped: [{ itemId: `${batchId}-0001`, reason: 'the item has not failed' }],
    });
    expect((await post(`/api/batches/${batchId}/retry`)).body).toMatchObject({ retried: [], pending: [], skipped: [] });
    expect((await post(`/api/items/${batchId}-0099/retry`)).status).toBe(404);
    expect((await post('/api/batches/no-such-batch/retry')).status).toBe(404);
    expect((await post(`/api/items/${batchId}/retry`)).status).toBe(404);
  });

  it('rebuilds an item from its feed when its job was cleaned from the queue', async () => {
    const dir = makeTmpDir('retry-gone');
    try {
      writeFileSync(path.join(dir, 'x.jpg'), 'not a photo at all');
      const [o] = await desk.p.ingest([dir]);
      const id = `${o.batchId}-0001`;
      const queue = new Queue(QUEUES.item, { connection: desk.p.rt.redis, prefix: queuePrefix(desk.p.config.prefix) });
      try {
        await (await Job.fromId(queue, jobIds.item(id)))!.remove();
      } finally {
        await queue.close();
      }
      writeFileSync(path.join(dir, 'x.jpg'), await repairPhoto());
      expect(await retryItems(desk.p.rt, id)).toMatchObject({ retried: [id] });
      await waitForBatches(desk.p.rt, [o.batchId!], { progress: false, timeoutMs: 60_000 });
      expect(await desk.p.rt.ctx.catalog.getBatch(o.batchId!)).toMatchObject({ ok: 1, failed: 0, state: 'done' });
    } finally {
      removeDir(dir);
    }
  });

  it('does not retry an item the feed itself got wrong: it names the fix', async () => {
    const dir = makeTmpDir('retry-bad-line');
    try {
      writeFileSync(
        path.join(dir, 'feed.ndjson'),
        '{"caption": "A good line. REUTERS/Jane Doe"}\n{"caption": broken json\n',
      );
      const [o] = await desk.p.ingest([path.join(dir, 'feed.ndjson')]);
      const out = await retryItems(desk.p.rt, o.batchId!);
      expect(out!.retried).toEqual([]);
      expect(out!.skipped).toEqual([
        {
          itemId: `${o.batchId}-0002`,
          reason: expect.stringMatching(
            /^FEED_MALFORMED: the feed itself is bad at this item; fix the feed and ingest it again/,
          ),
        },
      ]);
      expect(await desk.p.rt.ctx.catalog.getBatch(o.batchId!)).toMatchObject({ state: 'done' });
    } finally {
      removeDir(dir);
    }
  });
});
