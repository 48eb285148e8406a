import { createHash } from 'node:crypto';
import { ItemPipeline } from '../../../../src/app/items/itemPipeline';
import { isRetryable } from '../../../../src/app/items/retryable';
import { InputError } from '../../../../src/core/errors';
import { StorageError } from '../../../../src/adapters/storage/storagePort';
import { FetchFailedError } from '../../../../src/adapters/http/fetchUrl';
import { Fakes, job, photoBytes } from './fakes';

/** The item pipeline built with in-memory fakes of its ports: what it asks of each, and what it records. */

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('ItemPipeline', () => {
  it('a photo: read, probed, rendered once, original + renditions stored before the manifest, registered, recorded', async () => {
    const f = new Fakes();
    const bytes = photoBytes('cp.jpg');
    f.files.set('/feeds/drop/cp.jpg', bytes);
    const p = new ItemPipeline(f.ports());

    const out = await p.handle(job({ image: '/feeds/drop/cp.jpg' }), { number: 1, max: 3 });

    const h = sha(bytes);
    expect(f.called('source.readFile').map((c) => c.args)).toEqual([['/feeds/drop', '/feeds/drop/cp.jpg']]);
    expect(f.called('codec.render')).toHaveLength(1);
    // the manifest is written last, after the original and both renditions; the render pause sits just before it
    const writes = f.calls
      .filter((c) => c.port.startsWith('store.put') || (c.port === 'pause' && c.args[0] === 'render'))
      .map((c) => c.port);
    expect(writes.slice(-2)).toEqual(['pause', 'store.putManifest']);
    expect(writes.filter((w) => w === 'store.putRendition')).toHaveLength(2);
    expect(writes.indexOf('store.putOriginal')).toBeLessThan(writes.indexOf('store.putManifest'));
    expect(f.called('pause').map((c) => c.args[0])).toEqual(['render', 'dedup']);
    expect(f.called('photos.register')[0].args[0]).toMatchObject({ itemId: 'b1-0001', sha256: h });

    const { record } = out;
    expect(out.rendered).toBe(true);
    expect(record.error).toBeNull();
    expect(record.image).toMatchObject({
      sha256: h,
      width: 640,
      height: 480,
      format: 'jpeg',
      bytes: bytes.length,
      original: `originals/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.jpg`,
    });
    expect(record.renditions.map((r) => r.path)).toEqual([
      `renditions/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}/thumb.webp`,
      `renditions/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}/preview.jpg`,
    ]);
    for (const r of record.renditions) expect(f.objects.has(r.path)).toBe(true);
    // caption and credit read from the photo's own IPTC (the feed gave none)
    expect(record.captionRaw.length).toBeGreaterThan(20);
    expect(record.credit.line).toBeTruthy();
    expect(record.processedAt).toBe('2026-12-01T12:00:00.000Z');
    expect(f.marked).toEqual([{ record, failure: null }]);
    const done = f.logs.find((l) => l.msg === 'item done')!;
    expect(done.obj).toMatchObject({
      rendered: true,
      stages: {
        read: expect.any(Number),
        renditions: expect.any(Number),
        store: expect.any(Number),
        catalog: expect.any(Number),
      },
    });
  });

  it('a caption without a photo: nothing read, rendered or stored; the record has the cleaned caption and credit', async () => {
    const f = new Fakes();
    const p = new ItemPipeline(f.ports());
    const { record, rendered } = await p.handle(
      job({ captionRaw: 'Fans cheer in Madrid on Sunday. REUTERS/Susana Vera' }),
      { number: 1, max: 3 },
    );
    expect(rendered).toBe(false);
    expect(f.calls.filter((c) => /^(source|codec|store|photos)\./.test(c.port))).toEqual([]);
    expect(record.image).toBeNull();
    expect(record.renditions).toEqual([]);
    expect(record.caption).toBe('Fans cheer in Madrid on Sunday.');
    expect(record.credit.agency).toBe('REUTERS');
    expect(f.marked).toHaveLength(1);
  });

  it('a photo that fails to decode: its failed record keeps the caption, credit and file flag read from it', async () => {
    const f = new Fakes();
    // cech.jpg's own caption starts "(FILE PHOTO) Petr Cech has announced...": a file picture
    f.files.set('/feeds/drop/cech.jpg', photoBytes('cech.jpg'));
    f.probeResult = new InputError('IMAGE_CORRUPT', '/feeds/drop/cech.jpg: the image could not be decoded');
    const p = new ItemPipeline(f.ports());
    const j = job({ image: '/feeds/drop/cech.jpg' });

    // the same text, had it rendered
    const ok = new Fakes();
    ok.files.set('/feeds/drop/cech.jpg', photoBytes('cech.jpg'));
    const rendered = (await new ItemPipeline(ok.ports()).process(j)).record;
    expect(rendered.credit.flags.file).toBe(true);

    const err = await p.handle(j, { number: 1, max: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(isRetryable(err)).toBe(false);
    expect(f.marked).toHaveLength(1);
    const { record, failure } = f.marked[0];
    expect(failure).toEqual({
      error: { code: 'IMAGE_CORRUPT', message: '/feeds/drop/cech.jpg: the image could not be decoded' },
      attempts: 1,
    });
    expect(record.error?.code).toBe('IMAGE_CORRUPT');
    expect(record.image).toBeNull();
    expect(record.caption).toBe(rendered.caption);
    expect(record.credit).toEqual(rendered.credit);
    expect(record.credit.flags.file).toBe(true);
    expect(f.called('codec.render')).toEqual([]);
    expect(f.called('kills.settle')).toHaveLength(1);
  });

  it('bytes whose manifest exists: nothing rendered or written, the record names the stored renditions', async () => {
    const f = new Fakes();
    const bytes = photoBytes('pa.jpg');
    const h = sha(bytes);
    f.files.set('/feeds/drop/pa.jpg', bytes);
    const stored = {
      sha256: h,
      width: 640,
      height: 480,
      format: 'jpeg',
      phash: '0123456789abcdef',
      renditions: [
        {
          name: 'thumb' as const,
          path: `renditions/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}/thumb.webp`,
          width: 400,
          height: 300,
          format: 'webp',
          bytes: 999,
        },
      ],
    };
    f.manifests.set(h, stored);
    const out = await new ItemPipeline(f.ports()).handle(job({ image: '/feeds/drop/pa.jpg' }), { number: 1, max: 3 });
    expect(out.rendered).toBe(false);
    expect(f.called('codec.render')).toEqual([]);
    expect(f.calls.filter((c) => c.port.startsWith('store.put'))).toEqual([]);
    expect(out.record.renditions).toEqual(stored.renditions);
    expect(out.record.image).toMatchObject({
      sha256: h,
      phash: '0123456789abcdef',
      original: `originals/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.jpg`,
    });
  });

  it('a storage fault is retryable: thrown for BullMQ to retry, no record until the last attempt, then STORAGE_FAILED', async () => {
    const f = new Fakes();
    f.files.set('/feeds/drop/pa.jpg', photoBytes('pa.jpg'));
    f.storeFault = new StorageError(
      's3 put-if-absent s3://b/renditions/...: HTTP 503 ServiceUnavailable after 4 attempts',
    );
    const p = new ItemPipeline(f.ports());
    const j = job({ image: '/feeds/drop/pa.jpg' });

    const first = await p.handle(j, { number: 1, max: 2 }).catch((e: unknown) => e);
    expect(first).toBe(f.storeFault);
    expect(isRetryable(first)).toBe(true);
    expect(f.marked).toEqual([]);
    expect(f.manifests.size).toBe(0);
    expect(f.logs.map((l) => l.msg)).toContain('item failed, will retry');

    const last = await p.handle(j, { number: 2, max: 2 }).catch((e: unknown) => e);
    expect(isRetryable(last)).toBe(true);
    expect(f.marked).toHaveLength(1);
    expect(f.marked[0].failure).toEqual({
      error: { code: 'STORAGE_FAILED', message: f.storeFault.message },
      attempts: 2,
    });
    // what was read of the photo before the fault stays in the failed record
    expect(f.marked[0].record.captionRaw.length).toBeGreaterThan(20);

    // the fault clears: the third run (`photowire retry`) stores the set
    f.storeFault = null;
    const ok = await p.handle(j, { number: 1, max: 2 });
    expect(ok.record.error).toBeNull();
    expect(f.manifests.size).toBe(1);
  });

  it('a transient download failure is retryable; on the last attempt FETCH_FAILED says how many; a 404 fails at once', async () => {
    const f = new Fakes();
    const url = 'http://img.example/a.jpg';
    f.urls.set(url, new FetchFailedError(`${url}: HTTP 503 Service Unavailable`, true));
    const p = new ItemPipeline(f.ports());
    const j = job({ image: url });

    for (const n of [1, 2]) {
      const err = await p.handle(j, { number: n, max: 3 }).catch((e: unknown) => e);
      expect(isRetryable(err)).toBe(true);
    }
    expect(f.marked).toEqual([]);
    await p.handle(j, { number: 3, max: 3 }).catch(() => undefined);
    expect(f.marked.map((m) => m.failure)).toEqual([
      { error: { code: 'FETCH_FAILED', message: `${url}: HTTP 503 Service Unavailable (3 attempts)` }, attempts: 3 },
    ]);
    expect(f.called('source.fetch')).toHaveLength(3);
    expect(f.called('source.readFile')).toEqual([]);

    f.urls.set(url, new FetchFailedError(`${url}: HTTP 404 Not Found`, false));
    const gone = await p.handle(j, { number: 1, max: 3 }).catch((e: unknown) => e);
    expect(isRetryable(gone)).toBe(false);
    expect(f.marked[1].failure).toEqual({
      error: { code: 'FETCH_FAILED', message: `${url}: HTTP 404 Not Found` },
      attempts: 1,
    });

    // the host answers again
    f.urls.set(url, photoBytes('pa.jpg'));
    expect((await p.handle(j, { number: 2, max: 3 })).record.error).toBeNull();
  });

  it('an item the feed already marked bad: failed once, not retried, its caption and credit kept', async () => {
    const f = new Fakes();
    const bad = job({
      captionRaw: 'FILE PHOTO: A goal in Leeds. REUTERS/Lee Smith',
      error: { code: 'PATH_OUTSIDE_FEED', message: 'feed.csv: line 2: ../x.jpg leaves the folder' },
    });
    const err = await new ItemPipeline(f.ports()).handle(bad, { number: 1, max: 5 }).catch((e: unknown) => e);
    expect(isRetryable(err)).toBe(false);
    expect(f.marked[0].record).toMatchObject({
      error: { code: 'PATH_OUTSIDE_FEED' },
      credit: { agency: 'REUTERS', flags: { file: true } },
    });
  });
});
