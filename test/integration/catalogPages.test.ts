import { createRedis } from '../../src/adapters/redis/connection';
import type { Redis } from 'ioredis';
import { CatalogStore } from '../../src/adapters/redis/catalogStore';
import { redisKeys } from '../../src/adapters/redis/keys';
import type { CatalogRecord } from '../../src/schemas/record';
import { readRecordPage } from '../../src/app/records/recordQuery';
import type { RecordQuery } from '../../src/schemas/api';
import { summarizeBatch } from '../../src/app/batches/summarizeBatch';
import type { PipelineContext } from '../../src/app/pipelineContext';
import { deletePrefix, testRedisUrl, uniquePrefix } from '../helpers/testEnv';
import { cluster, record } from '../unit/web/records';

/**
 * Issue 14: a page of a 20,000-item batch reads that page, a filtered page the matching records,
 * the summary none. Records are counted by a wrapper around the Redis client the store uses:
 * every value a read command returns from a batch's records hash.
 */
const N = 20_000;
const AGENCIES = [
  { agency: 'AFP', agencyId: 'AFP' },
  { agency: 'Reuters', agencyId: 'REUTERS' },
  { agency: 'The Associated Press', agencyId: 'AP' },
  { agency: 'Daily Bugle Ltd', agencyId: null },
];
const CREATORS = ['Leon Neal', 'Dominic Lipinski', 'Jane Roe', 'José Álvarez'];
const BATCH = 'nightly-20k';

function item(i: number): CatalogRecord {
  const a = AGENCIES[i % AGENCIES.length];
  const group = Math.floor(i / 10); // ten items per cluster, the group's first is its canonical item
  const id = `${BATCH}-${String(i + 1).padStart(5, '0')}`;
  const failed = i % 100 === 99;
  return record(i, {
    id,
    batchId: BATCH,
    index: i,
    caption: `Item ${group} of the night: protesters outside parliament ${i % 7 === 0 ? 'in São Paulo' : 'in London'}`,
    credit: {
      creators: [CREATORS[i % CREATORS.length]],
      agency: a.agency,
      agencyId: a.agencyId,
      distributor: null,
      distributorId: null,
      confidence: i % 50 === 3 ? 'low' : 'high',
    },
    cluster: failed
      ? null
      : cluster(`c${String(group).padStart(15, '0')}`, `${BATCH}-${String(group * 10 + 1).padStart(5, '0')}`),
    error: failed ? { code: 'IMAGE_CORRUPT', message: 'cut short' } : null,
  });
}

function counting(redis: Redis): { client: Redis; read: () => number; reset: () => void } {
  let read = 0;
  const isRecords = (key: unknown) => String(key).endsWith(':records');
  const client = new Proxy(redis, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      const fn = v as (...a: unknown[]) => Promise<unknown>;
      if (prop === 'hmget' || prop === 'hget' || prop === 'hgetall' || prop === 'hvals') {
        return async (key: unknown, ...rest: unknown[]) => {
          const out = await fn.call(target, key, ...rest);
          if (isRecords(key)) {
            if (Array.isArray(out)) read += out.filter((x) => x !== null).length;
            else if (out && typeof out === 'object') read += Object.keys(out).length;
            else if (out !== null) read++;
          }
          return out;
        };
      }
      return fn.bind(target);
    },
  });
  return { client, read: () => read, reset: () => (read = 0) };
}

describe('catalog pages of a 20,000-item batch', () => {
  const prefix = uniquePrefix('pages');
  const redis = createRedis(testRedisUrl());
  const counted = counting(redis);
  const store = new CatalogStore(counted.client, prefix);
  const records = Array.from({ length: N }, (_, i) => item(i));
  // What summarizeBatch reads besides the catalog: where the batch's files are (a path, never opened).
  const ctx = {
    catalog: store,
    data: { root: '/tmp/none', batchDir: (b: string) => `batches/${b}` },
    exports: {
      location: (b: string, f: string) => `/tmp/none/batches/${b}/${f}`,
      renditionsLocation: () => '/tmp/none/renditions',
    },
  } as unknown as PipelineContext;
  const query = (q: Partial<RecordQuery> & { cursor?: number }) =>
    readRecordPage(store, BATCH, { offset: 0, limit: 100, ...q }, { expected: N });

  beforeAll(async () => {
    await store.createBatch({
      id: BATCH,
      feed: '/feeds/night.ndjson',
      format: 'ndjson',
      expected: N,
      warnings: [],
      article: null,
    });
    for (let from = 0; from < N; from += 1000) {
      await Promise.all(
        records
          .slice(from, from + 1000)
          .map((r) => store.markItem(r, r.error ? { error: r.error, attempts: 1 } : null)),
      );
    }
  }, 120_000);
  afterAll(async () => {
    await deletePrefix(prefix);
    redis.disconnect();
  });
  beforeEach(() => counted.reset());

  it('keeps the counters in the step that stores a record: the summary reads no record', async () => {
    const ok = records.filter((r) => !r.error);
    const s = await summarizeBatch(ctx, BATCH);
    expect(counted.read()).toBe(0);
    expect(s).toMatchObject({
      items: N,
      ok: ok.length,
      failed: N - ok.length,
      photos: 0,
      captionOnly: ok.length,
      clusters: new Set(ok.map((r) => r.cluster!.id)).size,
      duplicates: ok.filter((r) => r.cluster!.canonicalId !== r.id).length,
      joinedEarlier: 0,
      distinctCaptions: new Set(ok.map((r) => r.caption)).size,
      lowConfidenceCredits: ok.filter((r) => r.credit.confidence === 'low').length,
    });
  });

  it('reads a page of 100 from the middle, and only it', async () => {
    const page = await query({ offset: 10_000 });
    expect(counted.read()).toBe(100);
    expect(page.records.map((r) => r.index)).toEqual(Array.from({ length: 100 }, (_, i) => 10_000 + i));
    expect([page.total, page.nextOffset]).toEqual([N, 10_100]);
  });

  it('reads only the matching records of a filtered page, through the indexes', async () => {
    const afp = records.filter((r) => r.credit.agencyId === 'AFP');
    const page = await query({ agency: 'afp', offset: 2000 });
    expect(counted.read()).toBe(100);
    expect(page.records.map((r) => r.id)).toEqual(afp.slice(2000, 2100).map((r) => r.id));
    expect([page.total, page.exact]).toEqual([afp.length, true]);

    counted.reset();
    const both = await query({ agency: 'Agence France-Presse', creator: 'leon neal', failed: false, limit: 50 });
    const want = records.filter((r) => r.credit.agencyId === 'AFP' && r.credit.creators[0] === 'Leon Neal' && !r.error);
    expect(counted.read()).toBe(50);
    expect(both.records.map((r) => r.id)).toEqual(want.slice(0, 50).map((r) => r.id));
    expect(both.total).toBe(want.length);

    counted.reset();
    const c = await query({ cluster: records[1230].cluster!.id });
    expect(counted.read()).toBe(10);
    expect(c.records.map((r) => r.index)).toEqual(Array.from({ length: 10 }, (_, i) => 1230 + i));

    counted.reset();
    const low = await query({ lowConfidence: true, limit: 1000 });
    expect(low.total).toBe(records.filter((r) => !r.error && r.credit.confidence === 'low').length);
    expect(counted.read()).toBe(low.total);
    counted.reset();
    expect((await query({ failed: true, limit: 1000 })).records.map((r) => r.index)).toEqual(
      records.filter((r) => r.error).map((r) => r.index),
    );
    expect(counted.read()).toBe(N / 100);
  });

  it('answers a q search by a bounded scan, with a cursor to go on', async () => {
    const want = records.filter((r) => r.caption.includes('São Paulo') && r.credit.agencyId === 'AFP');
    const first = await query({ q: 'sao paulo agency:afp', limit: 20 });
    expect(counted.read()).toBeLessThanOrEqual(2000);
    expect(first.records.map((r) => r.id)).toEqual(want.slice(0, 20).map((r) => r.id));
    expect(first.exact).toBe(false);
    expect(first.total).toBeGreaterThanOrEqual(want.length);
    // Paging on from the cursor finds every match once, in feed order.
    const seen = [...first.records];
    let cursor = first.nextCursor;
    while (cursor !== null) {
      const next = await query({ q: 'sao paulo agency:afp', limit: 20, cursor });
      seen.push(...next.records);
      cursor = next.nextCursor;
    }
    expect(seen.map((r) => r.id)).toEqual(want.map((r) => r.id));
    // A next page reads what it needs to fill itself: about limit x (candidates per match), not the bound.
    counted.reset();
    await query({ q: 'sao paulo agency:afp', limit: 20, cursor: first.nextCursor! });
    expect(counted.read()).toBeLessThanOrEqual(20 * 28 + 200);
    // Within an index filter the scan reads only the index's records.
    counted.reset();
    const inCluster = await query({ cluster: records[70].cluster!.id, q: 'creator:neal' });
    expect(counted.read()).toBe(10);
    expect(inCluster.records.map((r) => r.index)).toEqual([72, 76]);
    expect([inCluster.total, inCluster.exact, inCluster.nextCursor]).toEqual([2, true, null]);
  });

  it('moves the counters when a record is replaced: a retry, a re-run, new clusters', async () => {
    const before = await store.counters(BATCH);
    const failed = records[99];
    // Stored again as it was (a worker that died after recording): nothing moves.
    await store.markItem(failed, { error: failed.error!, attempts: 1 });
    await store.markItem(records[5], null);
    expect(await store.counters(BATCH)).toEqual(before);
    // The retry succeeds: failed -1, caption-only +1, its cluster counted, the failed index left.
    const fixed = { ...failed, error: null, cluster: cluster('cnew000000000000', failed.id) };
    await store.markItem(fixed, null);
    const after = await store.counters(BATCH);
    expect(after).toEqual({
      ...before,
      failedRecords: before.failedRecords - 1,
      captionOnly: before.captionOnly + 1,
      clusters: before.clusters + 1,
    });
    expect((await query({ failed: true, limit: 1000 })).records.map((r) => r.index)).not.toContain(99);
    expect((await query({ cluster: 'cnew000000000000' })).records.map((r) => r.index)).toEqual([99]);
    // The finalize's clustering replaces records: item 5 joins item 99's cluster.
    const [raw5] = await store.rawRecords(BATCH, [5]);
    const moved = { ...records[5], cluster: cluster('cnew000000000000', failed.id, false, 0.9) };
    expect(await store.replaceRecords(BATCH, [{ index: 5, before: raw5!, after: JSON.stringify(moved) }])).toBe(true);
    expect((await query({ cluster: 'cnew000000000000' })).records.map((r) => r.index)).toEqual([5, 99]);
    expect((await query({ cluster: records[0].cluster!.id })).records.map((r) => r.index)).toEqual([
      0, 1, 2, 3, 4, 6, 7, 8, 9,
    ]);
    // Still a near-duplicate (of item 99, of this batch): the clusters keep their number, item 0's has one member less.
    expect(await store.counters(BATCH)).toMatchObject({
      clusters: after.clusters,
      duplicates: after.duplicates,
      joinedEarlier: 0,
    });
    const again = await store.counters(BATCH);
    // Put back as they were.
    await store.markItem(failed, { error: failed.error!, attempts: 1 });
    const [raw5b] = await store.rawRecords(BATCH, [5]);
    await store.replaceRecords(BATCH, [
      { index: 5, before: raw5b!, after: JSON.stringify({ ...records[5], index: 5 }) },
    ]);
    expect(await store.counters(BATCH)).toEqual(before);
    expect(again.captionOnly).toBe(before.captionOnly + 1);
  });

  it('indexes a batch stored before the indexes existed, once', async () => {
    const old = 'older-batch';
    const recs = Array.from({ length: 30 }, (_, i) => ({
      ...item(i),
      batchId: old,
      id: `${old}-${String(i + 1).padStart(4, '0')}`,
      cluster: null,
    }));
    await redis.hset(redisKeys(prefix).batch(old).records, ...recs.flatMap((r, i) => [String(i), JSON.stringify(r)]));
    expect(await store.ensureIndexed(old, 30)).toBe(30);
    expect(await store.ensureIndexed(old, 30)).toBe(0);
    expect((await store.counters(old)).failedRecords).toBe(0);
    expect((await store.counters(old)).captionOnly).toBe(30);
    expect(
      (await readRecordPage(store, old, { offset: 0, limit: 100, agency: 'reuters' }, { expected: 30 })).records.map(
        (r) => r.index,
      ),
    ).toEqual([1, 5, 9, 13, 17, 21, 25, 29]);
  });
});
