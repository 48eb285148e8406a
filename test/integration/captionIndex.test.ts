import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { readSeedCaptions, SEED_SAME_CAPTION } from '../../bench/dedup/seedCaptions';
import { CaptionIndex, DEFAULT_INDEX_THRESHOLD } from '../../src/adapters/redis/captionIndex';
import { ReferenceClusterer } from '../../src/core/dedup/referenceClusterer';
import { signCaption } from '../../src/core/dedup/signature';
import type { ClusterRef } from '../../src/schemas/record';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const seed = readSeedCaptions();

let connections: Redis[] = [];
let prefixes: string[] = [];

function connect(): Redis {
  const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  connections.push(r);
  return r;
}

function freshPrefix(): string {
  const p = `pwtest:${randomBytes(6).toString('hex')}:dedup:`;
  prefixes.push(p);
  return p;
}

afterEach(async () => {
  const r = connections[0] ?? connect();
  for (const p of prefixes) {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${p}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await r.del(...keys);
    } while (cursor !== '0');
  }
  await Promise.all(connections.map((c) => c.quit()));
  connections = [];
  prefixes = [];
});

/** The partition as sorted lists of seed numbers, clusters of 2+ only, whatever the cluster ids. */
function groups(refs: Map<string, ClusterRef | null>): string[][] {
  const byCluster = new Map<string, string[]>();
  for (const [n, ref] of refs) if (ref) byCluster.set(ref.id, [...(byCluster.get(ref.id) ?? []), n]);
  return [...byCluster.values()]
    .filter((g) => g.length > 1)
    .map((g) => g.sort())
    .sort((a, b) => a[0].localeCompare(b[0]));
}

async function assignSeedSequentially(index: CaptionIndex): Promise<Map<string, ClusterRef | null>> {
  const refs = new Map<string, ClusterRef | null>();
  for (const s of seed) refs.set(s.n, await index.assign(s.n, s.cleaned));
  return refs;
}

describe('CaptionIndex on the seed gallery', () => {
  // Issue 12's meaning (captionSimilarity at 0.50, layout v2): the seed's labelled families.
  it('groups the seed as issue 12 says: 01-03/07-11 one cluster, 04/05, 33-38 one, and the other families', async () => {
    const index = new CaptionIndex(connect(), { prefix: freshPrefix() });
    expect(index.threshold).toBe(DEFAULT_INDEX_THRESHOLD);
    expect(DEFAULT_INDEX_THRESHOLD).toBe(0.5);
    const refs = await assignSeedSequentially(index);
    expect(groups(refs)).toEqual(SEED_SAME_CAPTION.map((g) => [...g]));
    // The brute-force oracle in the same order gives the same partition.
    const oracle = new ReferenceClusterer(DEFAULT_INDEX_THRESHOLD);
    const oracleRefs = new Map(seed.map((s) => [s.n, oracle.assign(s.n, s.cleaned)]));
    expect(groups(refs)).toEqual(groups(oracleRefs));
    for (const s of seed) expect(refs.get(s.n)?.similarity).toBe(oracleRefs.get(s.n)?.similarity);

    const first = refs.get('01')!;
    expect(first).toMatchObject({ canonicalId: '01', similarity: 1, exact: true });
    // The seed's exact groups are exact: 01=03=07, 04=05, 08=09.
    expect(refs.get('03')).toEqual({ ...first, similarity: 1, exact: true });
    expect(refs.get('07')).toEqual({ ...first, similarity: 1, exact: true });
    expect(refs.get('05')).toMatchObject({ id: refs.get('04')!.id, canonicalId: '04', similarity: 1, exact: true });
    expect(refs.get('09')).toMatchObject({ id: first.id, exact: false });
    expect(refs.get('02')).toMatchObject({ id: first.id, canonicalId: '01', exact: false });
    expect(refs.get('02')!.similarity).toBeCloseTo(76 / 77, 6);
    expect(refs.get('08')).toMatchObject({ id: first.id, canonicalId: '01', exact: false });
    expect(refs.get('08')!.diff!.edits[0]).toMatchObject({ at: 0, deleted: 'A masked supporter of Julian Assange', inserted: 'Police officers' });

    const cluster = await index.getCluster(first.id);
    expect(cluster).toMatchObject({ id: first.id, canonicalId: '01', canonicalCaption: seed[0].cleaned, size: 8 });
    expect(cluster!.members.map((m) => [m.itemId, m.exact])).toEqual([
      ['01', true],
      ['02', false],
      ['03', true],
      ['07', true],
      ['08', false],
      ['09', false],
      ['10', false],
      ['11', false],
    ]);

    const listed = await index.listClusters({ minSize: 2 });
    expect(listed.map((c) => c.size)).toEqual([8, 7, 4, 4, 3, 2, 2]);
    expect(listed[0].id).toBe(first.id);
    const all = await index.listClusters();
    expect(all).toHaveLength(7 + 41 - 30); // 7 families (30 captions) + 11 singletons
    const ofBatch = await index.listClusters({ itemIds: ['04', '16', 'not-an-item'] });
    expect(ofBatch.map((c) => c.members.map((m) => m.itemId))).toEqual([['04', '05'], ['16']]);
  });

  // At threshold 0.50 a chain (A~B, B~C, not A~C) makes the index's answer depend on arrival
  // order: the pipeline decides a batch in feed order in its finalize job (clusterBatch.ts, proven
  // with 8 worker processes by clusterOrder.test.ts). What the index itself guarantees under 8
  // concurrent callers is checked here: one cluster per item, never two, and the same words in
  // the same cluster, whatever the order.
  it('keeps every item in one cluster and the same words together with 8 concurrent callers in shuffled order', async () => {
    const prefix = freshPrefix();
    const workers = Array.from({ length: 8 }, () => new CaptionIndex(connect(), { prefix }));
    let state = 2012;
    const rnd = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const order = [...seed];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const refs = new Map<string, ClusterRef | null>();
    let next = 0;
    await Promise.all(
      workers.map(async (w) => {
        while (next < order.length) {
          const s = order[next++];
          refs.set(s.n, await w.assign(s.n, s.cleaned));
        }
      }),
    );
    // Every item with a caption is a member of exactly one cluster, the one its answer names.
    const assigned = seed.filter((s) => refs.get(s.n)).map((s) => s.n).sort();
    const listed = await workers[0].listClusters({ itemIds: [...refs.keys()] });
    const members = listed.flatMap((c) => c.members.map((m) => m.itemId));
    expect(members.length).toBe(new Set(members).size);
    expect([...members].sort()).toEqual(assigned);
    for (const c of listed) for (const m of c.members) expect(refs.get(m.itemId)!.id).toBe(c.id);
    // The seed's groups of the same words land in one cluster, whichever of them came first
    // (exact is relative to the canonical caption, which the arrival order picks).
    for (const same of [['01', '03', '07'], ['04', '05'], ['08', '09']]) {
      expect(new Set(same.map((n) => refs.get(n)!.id)).size).toBe(1);
    }
  });
  it('gives each non-exact member its word-level diff against the canonical caption, and a retry the same diff', async () => {
    const index = new CaptionIndex(connect(), { prefix: freshPrefix() });
    const refs = await assignSeedSequentially(index);
    expect(refs.get('01')!.diff).toBeUndefined(); // the canonical
    expect(refs.get('07')!.diff).toBeUndefined(); // exact duplicate
    expect(refs.get('11')).toMatchObject({
      canonicalId: '01',
      exact: false,
      diff: { edits: [{ at: 0, deleted: 'A', inserted: '' }, { at: 2, deleted: 'supporter', inserted: 'supporters' }], more: 0 },
    });
    // 38 against its cluster's canonical 32: another subject line, and the clause moved.
    expect(refs.get('38')).toMatchObject({ canonicalId: '32', exact: false });
    expect(refs.get('38')!.diff!.edits.map((e) => e.inserted)).toContain('about his plea for asylum');
    expect(await index.assign('11', seed[10].cleaned)).toEqual(refs.get('11'));
  });

  it('assignMany decides in the order given: same answers as one-by-one assign in that order', async () => {
    const order = [...seed].reverse();
    const oneByOne = new CaptionIndex(connect(), { prefix: freshPrefix() });
    const expected: Array<ClusterRef | null> = [];
    for (const s of order) expected.push(await oneByOne.assign(s.n, s.cleaned));
    const batch = new CaptionIndex(connect(), { prefix: freshPrefix() });
    const got = await batch.assignMany([...order.map((s) => ({ itemId: s.n, caption: s.cleaned })), { itemId: 'empty', caption: ' ' }]);
    expect(got).toEqual([...expected, null]);
    expect(got[order.findIndex((s) => s.n === '11')]).toMatchObject({ canonicalId: '11', exact: true }); // 11 now arrives before 01
  });
});

describe('CaptionIndex guarantees', () => {
  const caption =
    'Supporters of WikiLeaks founder Julian Assange sit outside the Ecuadorian Embassy, in London, Friday, June 22, 2012. Assange entered the embassy on Monday in an attempt to gain political asylum to prevent him from being extradited to Sweden.';

  it('answers a retried item with its first cluster and adds no member twice', async () => {
    const index = new CaptionIndex(connect(), { prefix: freshPrefix() });
    const a = await index.assign('item-a', caption);
    const b = await index.assign('item-b', caption.replace('Supporters', 'A supporter').replace(' sit ', ' sits '));
    const again = await Promise.all([index.assign('item-b', caption), index.assign('item-b', 'a different caption now')]);
    // The first cluster; the diff is of the caption passed (a real retry passes the same one).
    const { diff: _d, ...first } = b!;
    expect(again.map((r) => ({ ...r!, diff: undefined }))).toEqual([{ ...first, diff: undefined }, { ...first, diff: undefined }]);
    expect(await index.assign('item-a', caption)).toEqual(a);
    const cluster = await index.getCluster(a!.id);
    expect(cluster!.members.map((m) => m.itemId)).toEqual(['item-a', 'item-b']);
    expect(cluster!.size).toBe(2);
  });

  it('creates exactly one cluster when 8 workers assign 200 near-identical captions at once', async () => {
    const prefix = freshPrefix();
    const workers = Array.from({ length: 8 }, () => new CaptionIndex(connect(), { prefix }));
    const variants = [
      caption,
      caption.toUpperCase(),
      caption.replace(/,/g, ''),
      caption.replace('Supporters', 'A supporter').replace(' sit ', ' sits '),
      `${caption.replace(/\.$/, '')} .`,
    ];
    const jobs = Array.from({ length: 200 }, (_v, i) => ({ id: `item-${i}`, text: variants[i % variants.length] }));
    const refs = await Promise.all(jobs.map((j, i) => workers[i % workers.length].assign(j.id, j.text)));
    const ids = new Set(refs.map((r) => r!.id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    const cluster = await workers[0].getCluster(id);
    expect(cluster!.size).toBe(200);
    expect(new Set(cluster!.members.map((m) => m.itemId)).size).toBe(200);
    expect(await workers[0].listClusters()).toHaveLength(1);
  });

  it('finds last night\'s cluster from a new connection and a new index object', async () => {
    const prefix = freshPrefix();
    const lastNight = await new CaptionIndex(connect(), { prefix }).assign('night1-0001', caption);
    await connections[0].quit();
    connections = [];
    const tonight = new CaptionIndex(connect(), { prefix });
    const ref = await tonight.assign('night2-0001', `${caption} `.replace('Friday', 'friday'));
    expect(ref).toEqual({ id: lastNight!.id, canonicalId: 'night1-0001', similarity: 1, exact: true });
    expect((await tonight.getCluster(lastNight!.id))!.members.map((m) => m.itemId)).toEqual(['night1-0001', 'night2-0001']);
  });

  it('clusters captions shorter than a shingle and gives empty captions no cluster', async () => {
    const index = new CaptionIndex(connect(), { prefix: freshPrefix() });
    const a = await index.assign('s1', 'Assange');
    expect(await index.assign('s2', 'ASSANGE!')).toEqual({ id: a!.id, canonicalId: 's1', similarity: 1, exact: true });
    expect((await index.assign('s3', 'Sarah'))!.id).not.toBe(a!.id);
    expect((await index.assign('s4', 'Julian Assange'))!.id).not.toBe(a!.id);
    expect(await index.assign('e1', '')).toBeNull();
    expect(await index.assign('e2', ' -- ... ')).toBeNull();
    expect(await index.listClusters({ itemIds: ['e1', 'e2'] })).toEqual([]);
    expect(await index.listClusters()).toHaveLength(3);
  });

  it('never merges on a band-bucket collision: every candidate is verified on its shingles', async () => {
    const index = new CaptionIndex(connect(), { prefix: freshPrefix() });
    const redis = connections[0];
    const a = await index.assign('a', caption);
    // Plant cluster a in every bucket the unrelated caption b will look in, as a hash collision would.
    const other = 'Ecuador\u2019s President Rafael Correa gestures during a press conference in Quito, Ecuador, Thursday, June 21, 2012.';
    const raw = Buffer.from(a!.id, 'hex');
    for (const { key, field } of index.locate(other)!.buckets) await redis.hset(key, field, raw);
    const b = await index.assign('b', other);
    expect(b!.id).not.toBe(a!.id);
    expect(b).toMatchObject({ canonicalId: 'b', exact: true });
    expect((await index.getCluster(a!.id))!.size).toBe(1);
  });

  it('verifies the candidates with the most band hits first when there are more than maxCandidates', async () => {
    const other = 'Ecuador\u2019s President Rafael Correa gestures during a press conference in Quito, Ecuador, Thursday, June 21, 2012.';
    // The caption with its last word changed: it shares some of the caption's bands, not its last anchor.
    const edited = caption.replace(/\S+$/, 'yesterday.');
    const decide = async (maxCandidates: number) => {
      const index = new CaptionIndex(connect(), { prefix: freshPrefix(), maxCandidates });
      const redis = connections[0];
      const x = (await index.assign('x', caption))!;
      const y = (await index.assign('y', other))!;
      const mine = index.locate(edited)!;
      const theirs = index.locate(caption)!.buckets;
      const xHits = mine.buckets.filter((b, i) => theirs[i] !== undefined && theirs[i].key === b.key && theirs[i].field.equals(b.field)).length;
      expect(xHits).toBeGreaterThan(0);
      expect(xHits).toBeLessThan(mine.buckets.length);
      // y (unrelated) planted in every bucket the edit looks in, after what is there: more hits than x.
      for (const { key, field } of mine.buckets) {
        const cur = (await redis.hgetBuffer(key, field)) ?? Buffer.alloc(0);
        await redis.hset(key, field, Buffer.concat([cur, Buffer.from(y.id, 'hex')]));
      }
      return { x, y, ref: (await index.assign('e', edited))! };
    };
    // One verified: y's, the most hits; it fails verification, so the edit starts its own cluster.
    const one = await decide(1);
    expect(one.ref).toMatchObject({ canonicalId: 'e', exact: true });
    // Two verified: x is among them and joins.
    const two = await decide(2);
    expect(two.ref.id).toBe(two.x.id);
    expect(two.ref.exact).toBe(false);
  });

  it('uses the threshold it is given', async () => {
    const strict = new CaptionIndex(connect(), { prefix: freshPrefix(), threshold: 0.99 });
    const refs = await assignSeedSequentially(strict);
    expect(refs.get('02')!.id).not.toBe(refs.get('01')!.id);
    expect(() => new CaptionIndex(connections[0], { prefix: 'x', threshold: 0 })).toThrow(/threshold/);
    expect(() => new CaptionIndex(connections[0], { prefix: 'x', threshold: 1.5 })).toThrow(/threshold/);
  });

  it('refuses to use an index written with another key layout, naming both', async () => {
    const prefix = freshPrefix();
    await new CaptionIndex(connect(), { prefix }).assign('a', caption);
    const other = new CaptionIndex(connections[0], { prefix, itemShardBits: 8 });
    await expect(other.assign('b', caption)).rejects.toThrow(/was built with "k=2 bands=8x4\+anchors12 items=16 buckets=14".*"k=2 bands=8x4\+anchors12 items=8 buckets=14"/);
  });

  it('counts a member cut short as contained in the cluster: the shingles members add are kept', async () => {
    const index = new CaptionIndex(connect(), { prefix: freshPrefix() });
    const s = (n: string) => seed.find((x) => x.n === n)!.cleaned;
    const a = await index.assign('01', s('01'));
    const b = await index.assign('08', s('08')); // another subject line on 01's paragraph
    expect(b).toMatchObject({ id: a!.id, exact: false });
    // 08 cut at 200 characters: its subject line is not in 01, only in what 08 added.
    const cut = s('08').slice(0, 200);
    const oracle = new ReferenceClusterer(DEFAULT_INDEX_THRESHOLD);
    oracle.assign('01', s('01'));
    oracle.assign('08', s('08'));
    const want = oracle.assign('cut', cut)!;
    const got = await index.assign('cut', cut);
    expect(got).toMatchObject({ id: a!.id, exact: false, similarity: want.similarity });
    const alone = await new CaptionIndex(connect(), { prefix: freshPrefix() }).assign('cut-alone', cut);
    expect(alone).toMatchObject({ canonicalId: 'cut-alone' }); // without 08 before it, nothing to join
  });

  it('keys the index by signature version and threshold: another threshold is another index, served once activated', async () => {
    const prefix = freshPrefix();
    const caption08 = seed.find((x) => x.n === '08')!.cleaned;
    const loose = new CaptionIndex(connect(), { prefix });
    await loose.assign('01', seed[0].cleaned);
    expect((await loose.assign('08', caption08))!.canonicalId).toBe('01');
    const keys = await connections[0].keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith(`${prefix}{v2t0.5}:`) || k === `${prefix}active`)).toBe(true);
    expect(await connections[0].get(`${prefix}active`)).toBe(`${prefix}{v2t0.5}:`);
    // Another threshold under the same prefix: the active index keeps serving (its own threshold)
    // until a rebuild swaps the pointer (docs/DEDUP.md "clusters rebuild").
    const configured = new CaptionIndex(connect(), { prefix, threshold: 0.9 });
    expect(await configured.assign('08b', caption08)).toMatchObject({ canonicalId: '01', exact: false });
    expect(configured.threshold).toBe(0.5);
    // The stricter index itself (what the rebuild builds) never reads the loose one.
    const strict = new CaptionIndex(connect(), { prefix, threshold: 0.9, pinned: true });
    expect(await strict.assign('08c', caption08)).toMatchObject({ canonicalId: '08c', exact: true });
    expect(await strict.listClusters()).toHaveLength(1);
    await strict.activate();
    const reopened = new CaptionIndex(connect(), { prefix });
    expect(await reopened.assign('08d', caption08)).toMatchObject({ canonicalId: '08c', exact: true });
    expect(reopened.threshold).toBe(0.9);
    expect(reopened.keyBase).toBe(`${prefix}{v2t0.9}:`);
    // deleteAll removes the index and the pointer naming it (nothing left behind), not the 0.50 index.
    await reopened.deleteAll();
    const left = await connections[0].keys(`${prefix}*`);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((k) => k.startsWith(`${prefix}{v2t0.5}:`))).toBe(true);
  });

  it('decides a caption with candidates in one script call, every key of the index in one hash slot (issue 12 throughput)', async () => {
    const r = connect();
    const prefix = freshPrefix();
    const index = new CaptionIndex(r, { prefix });
    await index.assign('warm', 'A warm-up caption so the layout key is written before counting.');
    let scripts = 0;
    const send = r.sendCommand.bind(r);
    r.sendCommand = ((cmd: { name: string }) => {
      if (cmd.name === 'evalsha' || cmd.name === 'eval') scripts++;
      return send(cmd as never);
    }) as typeof r.sendCommand;
    // The seed in feed order: most captions find candidates in the buckets (before: a 'stale'
    // reply and a second call declaring them: 61 calls for these 41 captions).
    const refs = await assignSeedSequentially(index);
    expect(scripts).toBe(seed.length);
    expect(groups(refs)).toEqual(SEED_SAME_CAPTION.map((g) => [...g]));
    // Redis Cluster: a key's slot is its first {...}; every key of this index has the same one.
    const keys = (await r.keys(`${prefix}*`)).filter((k) => k !== `${prefix}active`);
    expect(keys.length).toBeGreaterThan(100);
    expect(new Set(keys.map((k) => /\{([^}]*)\}/.exec(k)?.[1]))).toEqual(new Set(['v2t0.5']));
  });

  it('decides assignMany and concurrent assigns in batched script calls, item by item as one call each would (issue 12 throughput)', async () => {
    const one = new CaptionIndex(connect(), { prefix: freshPrefix(), batchSize: 1 });
    const expected = await assignSeedSequentially(one);
    const countScripts = (r: Redis) => {
      const counter = { scripts: 0 };
      const send = r.sendCommand.bind(r);
      r.sendCommand = ((cmd: { name: string }) => {
        if (cmd.name === 'evalsha' || cmd.name === 'eval') counter.scripts++;
        return send(cmd as never);
      }) as typeof r.sendCommand;
      return counter;
    };
    // assignMany: the seed in chunks of 16, 3 calls for 41 captions, every reference as one at a time.
    const r1 = connect();
    const many = new CaptionIndex(r1, { prefix: freshPrefix() });
    await many.assign('warm', 'A warm-up caption so the layout key is written before counting.');
    const c1 = countScripts(r1);
    const refsMany = await many.assignMany(seed.map((s) => ({ itemId: s.n, caption: s.cleaned })));
    expect(c1.scripts).toBe(Math.ceil(seed.length / 16));
    expect(new Map(seed.map((s, i) => [s.n, refsMany[i]]))).toEqual(expected);
    // Idempotent across batches: the same items again are known, same references, nothing added.
    const outcomes = { created: 0, joined: 0, known: 0 };
    expect(await many.assignMany(seed.map((s) => ({ itemId: s.n, caption: s.cleaned })), outcomes)).toEqual(refsMany);
    expect(outcomes).toEqual({ created: 0, joined: 0, known: seed.length });
    // assign() calls made in one tick are queued in order and go in batches of batchSize.
    const r2 = connect();
    const concurrent = new CaptionIndex(r2, { prefix: freshPrefix(), batchSize: 8 });
    await concurrent.assign('warm', 'A warm-up caption so the layout key is written before counting.');
    const c2 = countScripts(r2);
    const refsConcurrent = await Promise.all(seed.map((s) => concurrent.assign(s.n, s.cleaned)));
    expect(c2.scripts).toBe(Math.ceil(seed.length / 8));
    expect(new Map(seed.map((s, i) => [s.n, refsConcurrent[i]]))).toEqual(expected);
  });

  it('fails only the caption of a batch that cannot be placed, the others are decided', async () => {
    const r = connect();
    const prefix = freshPrefix();
    const index = new CaptionIndex(r, { prefix });
    const [a, b] = [seed[0], seed[20]];
    const refA = (await index.assign('a', a.cleaned))!;
    const refB = (await index.assign('b', b.cleaned))!;
    // Plant a 64-bit clash: this caption's exact id and fallback id both hold other captions.
    const caption = 'A caption of its own about a harbour crane at dawn, nothing like the seed gallery, long enough to be shingled.';
    const sig = signCaption(caption)!;
    const base = index.keyBase;
    await r.set(`${base}c:${sig.clusterId}`, (await r.getBuffer(`${base}c:${refA.id}`))!);
    await r.set(`${base}c:${sig.altClusterId}`, (await r.getBuffer(`${base}c:${refB.id}`))!);
    const settled = await Promise.allSettled([
      index.assignMany([
        { itemId: 'before', caption: seed[30].cleaned },
        { itemId: 'clash', caption },
        { itemId: 'after', caption: seed[35].cleaned },
      ]),
    ]);
    expect(settled[0]).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/cluster ids .* both taken by other captions \(item clash\)/) } });
    // The items around it were decided and recorded.
    const [before, after] = await index.refsOf([
      { itemId: 'before', caption: seed[30].cleaned },
      { itemId: 'after', caption: seed[35].cleaned },
    ]);
    expect(before).not.toBeNull();
    expect(after).not.toBeNull();
    expect((await index.refsOf([{ itemId: 'clash', caption }]))[0]).toBeNull();
  });

  it('returns null for unknown or malformed cluster ids', async () => {
    const index = new CaptionIndex(connect(), { prefix: freshPrefix() });
    expect(await index.getCluster('0123456789abcdef')).toBeNull();
    expect(await index.getCluster('../../etc')).toBeNull();
  });
});
