import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { SEED_GALLERY, makeTmpDir, removeDir } from '../helpers/testEnv';
import { waitForBatches } from '../../src/cli/waitForBatches';
import {
  batchDetailSchema,
  batchListSchema,
  clusterSchema,
  ingestResponseSchema,
  recordPageSchema,
} from '../../src/schemas/api';
import { BROKEN_NAME, DESK_PHOTOS, deskPhoto, writeDeskPhotoFeed } from '../browser/deskFixture';

describe('the desk API (real server on 127.0.0.1, real Redis, real workers)', () => {
  let desk: Desk;
  let root: string;
  let outside: string;
  let galleryId: string;
  let photosId: string;

  const json = async (path: string, init?: RequestInit & { auth?: boolean }) => {
    const res = await desk.fetch(path, init);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  /** Upload bytes still in the desk's scratch folder (they are removed once stored). */
  const scratchUploads = () => {
    const tmp = path.join(desk.p.config.dataDir, 'tmp');
    return existsSync(tmp) ? readdirSync(tmp).filter((n) => n.endsWith('.upload')) : [];
  };
  const waitDone = (ids: string[]) => waitForBatches(desk.p.rt, ids, { progress: false, timeoutMs: 60_000 });

  beforeAll(async () => {
    root = makeTmpDir('feedroot');
    outside = makeTmpDir('outside');
    desk = await startDesk({ overrides: { PHOTOWIRE_FEED_ROOTS: root } });
    copyFileSync(SEED_GALLERY, path.join(root, 'gallery.txt'));
    copyFileSync(SEED_GALLERY, path.join(outside, 'secret.txt'));
  });
  afterAll(async () => {
    await desk?.close();
    removeDir(root);
    removeDir(outside);
  });

  describe('auth', () => {
    it('refuses every API call without the right token, and says how to send it', async () => {
      for (const p of ['/api/batches', '/api/events', '/api/batches/x/records', '/api/renditions/ab/cd/x/thumb.webp']) {
        const none = await json(p, { auth: false });
        expect([p, none.status, none.body.error]).toEqual([p, 401, 'UNAUTHORIZED']);
        expect(none.body.message).toContain('Authorization: Bearer');
      }
      const wrong = await json('/api/batches', {
        auth: false,
        headers: { Authorization: 'Bearer not-the-token-at-all' },
      });
      expect([wrong.status, wrong.body.message]).toEqual([401, 'wrong token']);
      const post = await json('/api/feeds', {
        auth: false,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: 'gallery.txt' }),
      });
      expect(post.status).toBe(401);
      expect(readdirSync(root)).toEqual(['gallery.txt']);
    });

    it('puts the queue board behind the same token (Basic, for a browser that navigates there, or Bearer)', async () => {
      const none = await desk.fetch('/admin/queues', { auth: false });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      const basic = await desk.fetch('/admin/queues', {
        auth: false,
        headers: { Authorization: `Basic ${Buffer.from(`ops:${desk.token}`).toString('base64')}` },
      });
      expect(basic.status).toBe(200);
      expect(await basic.text()).toContain('photowire queues');
      const api = await desk.fetch('/admin/queues/api/queues?activeQueue=photowire-item&page=1&jobsPerPage=10');
      expect(api.status).toBe(200);
      expect(JSON.stringify(await api.json())).toContain('photowire-item');
    });

    it('serves the page and the OpenAPI description without a token (they hold no data)', async () => {
      const page = await desk.fetch('/', { auth: false });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await page.text()).toContain('<script type="module" src="/app.js">');
      const js = await desk.fetch('/lib/group.js', { auth: false });
      expect(js.headers.get('content-type')).toMatch(/javascript/);

      const doc = await json('/openapi.json', { auth: false });
      expect(doc.body.openapi).toBe('3.1.0');
      expect(Object.keys(doc.body.paths)).toEqual(
        expect.arrayContaining([
          '/api/batches',
          '/api/batches/{batchId}/records',
          '/api/clusters/{clusterId}',
          '/api/feeds',
          '/api/items/{itemId}/retry',
          '/api/events',
        ]),
      );
      const record = doc.body.components.schemas.CatalogRecord;
      expect(record.required).toEqual(
        expect.arrayContaining(['id', 'caption', 'captionRaw', 'credit', 'cluster', 'error']),
      );
      const page200 =
        doc.body.paths['/api/batches/{batchId}/records'].get.responses['200'].content['application/json'].schema;
      expect(page200).toEqual({ $ref: '#/components/schemas/RecordPage' });
      expect(doc.body.components.schemas.RecordPage.properties.records.items).toEqual({
        $ref: '#/components/schemas/CatalogRecord',
      });
      // Every $ref points at a component that exists.
      const refs = JSON.stringify(doc.body).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
      for (const ref of new Set(refs)) expect(Object.keys(doc.body.components.schemas)).toContain(ref.slice(22, -1));
    });
  });

  describe('submitting feeds', () => {
    it('ingests a feed named by path under an allowed root', async () => {
      const res = await json('/api/feeds', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: 'gallery.txt' }),
      });
      expect(res.status).toBe(202);
      const body = ingestResponseSchema.parse(res.body);
      expect(body.feeds).toHaveLength(1);
      expect(body.feeds[0]).toMatchObject({
        path: path.join(root, 'gallery.txt'),
        created: true,
        expected: 41,
        error: null,
      });
      galleryId = body.feeds[0].batchId!;
      await waitDone([galleryId]);
    });

    it('refuses a path outside the roots, even through a symlink, without touching it', async () => {
      const out = await json('/api/feeds', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: path.join(outside, 'secret.txt') }),
      });
      expect([out.status, out.body.error]).toEqual([403, 'PATH_OUTSIDE_ROOTS']);
      const dotdot = await json('/api/feeds', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: '../' + path.basename(outside) + '/secret.txt' }),
      });
      expect(dotdot.status).toBe(403);
      symlinkSync(outside, path.join(root, 'link'));
      const link = await json('/api/feeds', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: 'link/secret.txt' }),
      });
      expect([link.status, link.body.error]).toEqual([403, 'PATH_OUTSIDE_ROOTS']);
      const bad = await json('/api/feeds', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ file: 'x' }),
      });
      expect([bad.status, bad.body.error]).toEqual([400, 'BAD_REQUEST']);
      expect(bad.body.message).toContain('path');
      const batches = batchListSchema.parse((await json('/api/batches')).body).batches;
      expect(batches.map((b) => b.id)).toEqual([galleryId]);
    });

    it('takes an upload of photos as a folder feed, stored as uploads/<id>/ through the storage port, once', async () => {
      const dir = makeTmpDir('photos');
      try {
        await writeDeskPhotoFeed(dir);
        const form = () => {
          const fd = new FormData();
          for (const name of readdirSync(dir).sort())
            fd.append('file', new Blob([readFileSync(path.join(dir, name))]), name);
          return fd;
        };
        const first = await json('/api/feeds', { method: 'POST', body: form() });
        expect(first.status).toBe(202);
        const [outcome] = ingestResponseSchema.parse(first.body).feeds;
        expect(outcome).toMatchObject({ created: true, expected: DESK_PHOTOS.length + 1, error: null });
        // A storage feed (the data directory or the bucket, whichever the pipeline stores in), not a local path.
        expect(outcome.path).toMatch(/^storage:uploads\/[0-9a-f]{16}\/$/);
        const prefix = outcome.path.slice('storage:'.length);
        expect(await desk.p.listStored(prefix)).toEqual(
          [...DESK_PHOTOS.map((p) => p.name), BROKEN_NAME].sort().map((n) => prefix + n),
        );
        photosId = outcome.batchId!;
        await waitDone([photosId]);

        const again = ingestResponseSchema.parse((await json('/api/feeds', { method: 'POST', body: form() })).body)
          .feeds[0];
        expect(again).toMatchObject({ batchId: photosId, created: false });
        expect(scratchUploads()).toEqual([]);
      } finally {
        removeDir(dir);
      }
    });

    it('answers 422 with the reason when nothing uploaded is a feed', async () => {
      const fd = new FormData();
      fd.append('file', new Blob(['just some notes, not a feed\n']), 'notes.txt');
      const res = await json('/api/feeds', { method: 'POST', body: fd });
      expect(res.status).toBe(422);
      expect(res.body.feeds[0]).toMatchObject({ batchId: null, error: { code: 'FEED_UNKNOWN_FORMAT' } });
      const empty = await json('/api/feeds', { method: 'POST', body: new FormData() });
      expect(empty.status).toBe(400);
    });
  });

  describe('reading batches', () => {
    it('lists the batches of the last days with live ledger counts and record counts', async () => {
      const { batches } = batchListSchema.parse((await json('/api/batches?days=2')).body);
      const gallery = batches.find((b) => b.id === galleryId)!;
      expect(gallery).toMatchObject({
        state: 'done',
        expected: 41,
        ok: 41,
        failed: 0,
        pending: 0,
        format: 'gallery-text',
      });
      expect(gallery.counts).toMatchObject({ captionOnly: 41, photos: 0 });
      expect(gallery.counts!.clusters).toBeGreaterThan(0);
      expect(gallery.counts!.duplicates).toBeGreaterThanOrEqual(2);
      const photos = batches.find((b) => b.id === photosId)!;
      expect(photos).toMatchObject({ expected: 6, ok: 5, failed: 1 });
      expect(photos.counts).toMatchObject({ photos: 5, clusters: 4, duplicates: 1, lowConfidenceCredits: 1 });
      const bad = await json('/api/batches?days=0');
      expect([bad.status, bad.body.error]).toEqual([400, 'BAD_REQUEST']);
      expect(bad.body.message).toContain('days');
    });

    it("gives a batch's failures with their reason", async () => {
      const detail = batchDetailSchema.parse((await json(`/api/batches/${photosId}`)).body);
      expect(detail.failures).toHaveLength(1);
      expect(detail.failures[0]).toMatchObject({ code: 'IMAGE_CORRUPT', position: 5, retrying: false });
      expect(detail.failures[0].message).toContain(BROKEN_NAME);
      expect((await json('/api/batches/no-such-batch')).status).toBe(404);
    });

    it('pages records in feed order', async () => {
      const first = recordPageSchema.parse((await json(`/api/batches/${galleryId}/records?limit=10`)).body);
      const second = recordPageSchema.parse((await json(`/api/batches/${galleryId}/records?limit=10&offset=10`)).body);
      expect([first.total, first.records.length, second.records.length]).toEqual([41, 10, 10]);
      expect([...first.records, ...second.records].map((r) => r.source.counter)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      const tooMany = await json(`/api/batches/${galleryId}/records?limit=5000`);
      expect(tooMany.status).toBe(400);
    });

    it('filters records by cluster, agency, creator, low-confidence credit, failure and text', async () => {
      const q = async (query: string) =>
        recordPageSchema.parse((await json(`/api/batches/${galleryId}/records?${query}`)).body);
      const all = (await q('limit=100')).records;
      const clusterId = all[0].cluster!.id;
      const cluster = await q(`cluster=${clusterId}`);
      expect(cluster.records.map((r) => r.source.counter)).toEqual(expect.arrayContaining([1, 3, 7]));
      const afp = await q('agency=afp');
      expect(afp.total).toBeGreaterThan(0);
      expect(afp.records.every((r) => r.credit.agency === 'AFP')).toBe(true);
      expect((await q('creator=neal')).records.every((r) => r.credit.creators.some((c) => /neal/i.test(c)))).toBe(true);
      expect((await q('creator=neal')).total).toBeGreaterThan(0);
      expect((await q('q=supreme court')).records.every((r) => /supreme court/i.test(r.caption))).toBe(true);
      expect((await q('q=supreme court')).total).toBeGreaterThan(0);
      expect((await q('failed=true')).total).toBe(0);

      const photos = async (query: string) =>
        recordPageSchema.parse((await json(`/api/batches/${photosId}/records?${query}`)).body);
      expect((await photos('failed=true')).records.map((r) => r.error?.code)).toEqual(['IMAGE_CORRUPT']);
      expect((await photos('failed=false')).total).toBe(5);
      expect((await photos('lowConfidence=1')).records.map((r) => r.credit.line)).toEqual(['J. Smith/Daily Bugle Ltd']);
      // One search: q takes the page's syntax (src/core/search/query.ts), agency= the index.
      expect((await photos('q=lisbon agency:ap')).total).toBe(2);
      expect((await photos('q=lisbon&agency=AP')).total).toBe(2);
      expect((await photos('q=lisbon agency:afp')).total).toBe(0);
      expect((await photos(`q=${encodeURIComponent('"near lisse" agency:ap')}`)).total).toBe(0);
    });

    it('gives a cluster with its members and their records', async () => {
      const all = recordPageSchema.parse((await json(`/api/batches/${galleryId}/records?limit=100`)).body).records;
      const c = clusterSchema.parse((await json(`/api/clusters/${all[0].cluster!.id}`)).body);
      expect(c.canonicalId).toBe(all[0].id);
      expect(c.size).toBeGreaterThanOrEqual(3);
      expect(c.members.map((m) => m.record?.source.counter)).toEqual(expect.arrayContaining([1, 3, 7]));
      expect(c.canonicalCaption.startsWith('A masked supporter of Julian Assange')).toBe(true);
      expect((await json('/api/clusters/0000000000000000')).status).toBe(404);
      expect((await json('/api/clusters/..%2F..%2Fetc')).status).toBe(400);
    });
  });

  describe('renditions', () => {
    it('serves a thumbnail as immutable, and nothing outside the renditions', async () => {
      const rec = recordPageSchema.parse((await json(`/api/batches/${photosId}/records?limit=1`)).body).records[0];
      const thumb = rec.renditions.find((r) => r.name === 'thumb')!;
      const res = await desk.fetch(`/api/${thumb.path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await res.arrayBuffer()).equals(await desk.p.readStored(thumb.path))).toBe(true);
      expect(
        (await desk.fetch(`/api/${rec.renditions.find((r) => r.name === 'preview')!.path}`)).headers.get(
          'content-type',
        ),
      ).toBe('image/jpeg');

      const sha = rec.image!.sha256;
      // A planted symlink inside the data directory leads nowhere (local storage: a bucket has no symlinks).
      if (desk.p.storageKind === 'local') {
        const planted = path.join(desk.p.config.dataDir, 'renditions', 'ee', 'ee', 'e'.repeat(64));
        mkdirSync(planted, { recursive: true });
        symlinkSync('/etc/passwd', path.join(planted, 'thumb.webp'));
      }
      for (const p of [
        `/api/renditions/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}/../../../../../etc/passwd`,
        `/api/renditions/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}/%2e%2e%2f%2e%2e%2fbatches`,
        `/api/renditions/00/00/${sha}/thumb.webp`,
        `/api/renditions/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}/renditions.json`,
        `/api/renditions/ee/ee/${'e'.repeat(64)}/thumb.webp`,
        `/api/originals/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}.jpg`,
      ]) {
        const r = await desk.fetch(p);
        expect([p, r.status]).toEqual([p, 404]);
        expect(await r.text()).not.toContain('root:');
      }
    });
  });

  describe('progress', () => {
    it('streams the batch list at once and again as a new batch moves', async () => {
      const ctrl = new AbortController();
      const res = await desk.fetch('/api/events?days=1', { signal: ctrl.signal });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      const events: Array<{ batches: Array<{ id: string; state: string; ok: number }> }> = [];
      let buffer = '';
      const next = async () => {
        for (;;) {
          const i = buffer.indexOf('\n\n');
          if (i >= 0) {
            const block = buffer.slice(0, i);
            buffer = buffer.slice(i + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (block.includes('event: batches') && data) return batchListSchema.parse(JSON.parse(data.slice(6)));
            continue;
          }
          const { value, done } = await reader.read();
          if (done) throw new Error('stream ended');
          buffer += decoder.decode(value, { stream: true });
        }
      };
      try {
        events.push(await next());
        expect(events[0].batches.map((b) => b.id)).toEqual(expect.arrayContaining([galleryId, photosId]));
        const dir = makeTmpDir('more');
        try {
          writeFileSync(path.join(dir, 'a.jpg'), await deskPhoto(0));
          writeFileSync(path.join(dir, 'b.jpg'), await deskPhoto(3));
          mkdirSync(path.join(root, 'more'));
          for (const n of ['a.jpg', 'b.jpg']) copyFileSync(path.join(dir, n), path.join(root, 'more', n));
        } finally {
          removeDir(dir);
        }
        const sub = ingestResponseSchema.parse(
          (
            await json('/api/feeds', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ path: 'more' }),
            })
          ).body,
        );
        const id = sub.feeds[0].batchId!;
        for (;;) {
          const e = await next();
          events.push(e);
          if (e.batches.find((b) => b.id === id)?.state === 'done') break;
        }
        expect(events.at(-1)!.batches.find((b) => b.id === id)).toMatchObject({ ok: 2, state: 'done' });
      } finally {
        ctrl.abort();
      }
    });
  });

  it('left no upload in progress behind', async () => {
    expect((await desk.p.listStored('uploads/')).length).toBeGreaterThan(0);
    expect(scratchUploads()).toEqual([]);
  });
});
