import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { buildClusterSet } from '../../bench/dedup/clusterSet';
import { samePartition, threeOrders } from '../../bench/dedup/clusterMeasure';
import { readSeedCaptions } from '../../bench/dedup/seedCaptions';
import { indexFingerprint, SubjectIndex } from '../../src/adapters/redis/captionIndexSubject';
import { PhotowireError } from '../../src/core/errors';
import { SubjectClusterer, type SubjectRef } from '../../src/core/dedup/subjectClusterer';
import { subjectRuleFingerprint } from '../../src/core/dedup/subjectRule';

jest.setTimeout(240_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: Redis;
const indexes: SubjectIndex[] = [];

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  for (const ix of indexes) await ix.deleteAll();
  await redis.quit();
});

function index(prefix = `pwtest:${randomBytes(6).toString('hex')}`, fingerprint?: string): SubjectIndex {
  const ix = new SubjectIndex(redis, { prefix, fingerprint });
  indexes.push(ix);
  return ix;
}

/** Items in the given order through the index, 500 per call as the finalize job sends them. */
async function assignAll(
  ix: SubjectIndex,
  items: ReadonlyArray<{ id: string; caption: string }>,
): Promise<Map<string, SubjectRef | null>> {
  const out = new Map<string, SubjectRef | null>();
  for (let i = 0; i < items.length; i += 500) {
    const chunk = items.slice(i, i + 500);
    const refs = await ix.withBatchLock('test', () =>
      ix.assignMany(chunk.map((c) => ({ itemId: c.id, caption: c.caption }))),
    );
    chunk.forEach((c, j) => out.set(c.id, refs[j]));
  }
  return out;
}

const set = buildClusterSet();

describe('the caption-cluster index in Redis', () => {
  it('gives exactly the brute force answers on the labelled set (cluster, canonical, similarity, why), in three orders, one partition', async () => {
    const partitions: Array<Map<string, string>> = [];
    for (const order of threeOrders(set)) {
      const brute = new SubjectClusterer();
      const want = new Map(order.map((c) => [c.id, brute.assign(c.id, c.caption)]));
      const got = await assignAll(index(), order);
      expect([...got.entries()]).toEqual([...want.entries()]);
      partitions.push(new Map([...got].map(([id, ref]) => [id, ref?.id ?? `none:${id}`])));
    }
    expect(samePartition(partitions[0], partitions[1])).toBe(true);
    expect(samePartition(partitions[0], partitions[2])).toBe(true);
  });

  it("keeps the seed's groups and explains each member: 02 joined 01 with the article dropped, the same background", async () => {
    const seed = readSeedCaptions();
    const ix = index();
    const refs = await assignAll(
      ix,
      seed.map((s) => ({ id: s.n, caption: s.raw })),
    );
    const groups = new Map<string, string[]>();
    for (const [n, ref] of refs) if (ref) groups.set(ref.id, [...(groups.get(ref.id) ?? []), n]);
    expect([...groups.values()].filter((g) => g.length > 1)).toEqual([
      ['01', '02', '03', '07', '11'],
      ['04', '05'],
      ['08', '09'],
      ['34', '35'],
      ['36', '38'],
    ]);
    expect(refs.get('02')).toMatchObject({
      canonicalId: '01',
      exact: false,
      why: { matched: ['subject'], background: 'same', edits: [{ kind: 'function-word', from: 'a', to: '' }] },
      diff: {
        edits: [
          { at: 0, deleted: 'A', inserted: '' },
          { at: 2, deleted: 'supporter', inserted: 'supporters' },
        ],
      },
    });
    expect(refs.get('03')).toEqual({ id: refs.get('01')!.id, canonicalId: '01', similarity: 1, exact: true });
    // A retry gets the first answers again and adds no member.
    const again = await assignAll(
      ix,
      seed.map((s) => ({ id: s.n, caption: s.raw })),
    );
    expect([...again.entries()]).toEqual([...refs.entries()]);
    expect((await ix.getCluster(refs.get('01')!.id))!.members.map((m) => m.itemId)).toEqual([
      '01',
      '02',
      '03',
      '07',
      '11',
    ]);
  });

  it('a late caption that matches two clusters joins the better one and never merges them', async () => {
    const a = 'Police officers stand outside the Ecuadorian Embassy in London, June 22, 2012.';
    const b = 'Police officers stand outside the Ecuadorian Embassy in London, June 23, 2012.';
    const typoA = 'Polise officers stand outside the Ecuadorian Embassy in London, June 22, 2012.';
    const brute = new SubjectClusterer();
    const ix = index();
    const items = [
      { id: 'a', caption: a },
      { id: 'b', caption: b },
      { id: 'late', caption: typoA },
    ];
    const got = await assignAll(ix, items);
    for (const it of items) expect(got.get(it.id)).toEqual(brute.assign(it.id, it.caption));
    expect(got.get('a')!.id).not.toBe(got.get('b')!.id);
    expect(got.get('late')!.id).toBe(got.get('a')!.id);
  });

  it('never overwrites a bucket entry another writer added after the call read the bucket', async () => {
    const prefix = `pwtest:${randomBytes(6).toString('hex')}`;
    const theirs = `${'f'.repeat(16)}QQ;`;
    const raced: Array<[string, string]> = [];
    // Each new bucket field is set by "another writer" just before this call's HSETNX reaches Redis
    // (commands on one connection run in the order sent; the pipeline is sent at exec).
    const racing = new Proxy(redis, {
      get(target, prop) {
        if (prop === 'pipeline')
          return () => {
            const p = target.pipeline();
            const hsetnx = p.hsetnx.bind(p);
            p.hsetnx = ((key: string, field: string, value: string) => {
              raced.push([key, field]);
              void target.hset(key, field, theirs);
              return hsetnx(key, field, value);
            }) as typeof p.hsetnx;
            return p;
          };
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const ix = new SubjectIndex(racing, { prefix });
    indexes.push(ix);
    const caption = 'A masked supporter of WikiLeaks founder Julian Assange stands outside the embassy.';
    const [ref] = await ix.withBatchLock('test', () => ix.assignMany([{ itemId: 'first', caption }]));
    expect(raced.length).toBeGreaterThan(0);
    for (const [key, field] of raced) {
      const value = await redis.hget(key, field);
      expect(value?.startsWith(theirs)).toBe(true);
      expect(value).toContain(ref!.id);
    }
    // The cluster is still found: a resend joins it.
    const [again] = await index(prefix).assignMany([
      { itemId: 'resend', caption: `REFILE - CORRECTING TYPO ${caption}` },
    ]);
    expect(again!.id).toBe(ref!.id);
  });

  it('refuses an index built with other parameters or another shard layout: `clusters rebuild` is needed', async () => {
    // The same rule, the shards of the earlier layout.
    const layout = `pwtest:${randomBytes(6).toString('hex')}`;
    await index(layout, `${subjectRuleFingerprint()} shards:items=2^16,buckets=2^14`).assignMany([
      { itemId: 'x', caption: 'Police officers outside the embassy.' },
    ]);
    await expect(index(layout).assignMany([{ itemId: 'y', caption: 'Police officers.' }])).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });

    const prefix = `pwtest:${randomBytes(6).toString('hex')}`;
    const old = index(prefix, JSON.stringify({ rule: 0, threshold: 0.5 }));
    await old.assignMany([{ itemId: 'x', caption: 'Police officers outside the embassy.' }]);
    const now = index(prefix);
    let error: unknown;
    await now
      .assignMany([{ itemId: 'y', caption: 'Police officers outside the embassy.' }])
      .catch((e: unknown) => (error = e));
    expect(error).toBeInstanceOf(PhotowireError);
    expect((error as PhotowireError).code).toBe('CONFIG_INVALID');
    expect((error as Error).message).toContain('photowire clusters rebuild');
    expect((error as Error).message).toContain(subjectRuleFingerprint());
    expect((error as Error).message).toContain(indexFingerprint());
    // Nothing was written with the new rule into the old layout.
    expect(await redis.hget(now.keys.items(0), 'y')).toBeNull();
  });
});
