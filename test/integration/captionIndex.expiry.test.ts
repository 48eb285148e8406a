import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { readSeedCaptions } from '../../bench/dedup/seedCaptions';
import { CaptionIndex } from '../../src/adapters/redis/captionIndex';
import { runRetentionPass, type RetentionPorts } from '../../src/app/retention/retentionPass';

/**
 * Issue 14, retention of the caption index: clusters not seen within the window leave it
 * (CaptionIndex.expireIdle()), and nothing dangles. Real Redis, own prefix, a fake clock.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const seed = readSeedCaptions();

let redis: Redis;
let prefixes: string[] = [];

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await redis.quit();
});
afterEach(async () => {
  for (const p of prefixes) for (const k of await scanKeys(`${p}*`)) await redis.unlink(k);
  prefixes = [];
});

function freshPrefix(): string {
  const p = `pwtest:${randomBytes(6).toString('hex')}:dedup:`;
  prefixes.push(p);
  return p;
}

async function scanKeys(pattern: string): Promise<string[]> {
  const out = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const k of keys) out.add(k);
  } while (cursor !== '0');
  return [...out];
}

/** A fake clock the index reads. */
function clockAt(ms: number): { now: () => number; set(ms: number): void } {
  let t = ms;
  return { now: () => t, set: (x) => (t = x) };
}

/**
 * Every reference in the index, checked: each bucket entry, alias and membership names a cluster
 * that exists; each member list names items whose membership names that cluster; each last-seen,
 * size and trail entry belongs to an existing cluster. Returns the cluster ids that exist.
 */
async function assertNothingDangles(base: string): Promise<Set<string>> {
  const clusters = new Set((await scanKeys(`${base}c:*`)).map((k) => k.slice(base.length + 2)));
  for (const k of await scanKeys(`${base}b*`)) {
    const h = await redis.hgetallBuffer(k);
    for (const v of Object.values(h)) {
      expect(v.length % 8).toBe(0);
      for (let i = 0; i < v.length; i += 8) {
        const id = v.subarray(i, i + 8).toString('hex');
        if (!clusters.has(id)) throw new Error(`bucket ${k} names removed cluster ${id}`);
      }
    }
  }
  for (const k of await scanKeys(`${base}a:*`)) {
    const id = await redis.get(k);
    if (!clusters.has(id!)) throw new Error(`alias ${k} names removed cluster ${id}`);
  }
  const membership = new Map<string, string>();
  for (const k of await scanKeys(`${base}i:*`)) {
    for (const [item, v] of Object.entries(await redis.hgetall(k))) {
      const id = v.split('|')[0];
      if (!clusters.has(id)) throw new Error(`item ${item} names removed cluster ${id}`);
      membership.set(item, id);
    }
  }
  for (const k of await scanKeys(`${base}m:*`)) {
    const id = k.slice(base.length + 2);
    expect(clusters.has(id)).toBe(true);
    for (const item of await redis.lrange(k, 0, -1)) {
      if (membership.get(item) !== id) throw new Error(`member list of ${id} names ${item}, whose membership is ${membership.get(item)}`);
    }
  }
  for (const k of await scanKeys(`${base}t:*`)) expect(clusters.has(k.slice(base.length + 2))).toBe(true);
  for (const k of await scanKeys(`${base}d:*`)) throw new Error(`drain list left: ${k}`);
  const seen = new Set<string>();
  for (const k of await scanKeys(`${base}s:*`)) {
    for (const id of await redis.zrange(k, '0', '-1')) {
      expect(clusters.has(id)).toBe(true);
      seen.add(id);
    }
  }
  // Every cluster has its last-seen entry (written in the assign script).
  expect([...clusters].filter((id) => !seen.has(id))).toEqual([]);
  for (const id of await redis.zrange(`${base}sizes`, '0', '-1')) expect(clusters.has(id)).toBe(true);
  return clusters;
}

describe('caption index retention (issue 14): idle clusters expire, nothing dangles', () => {
  it('removes clusters not seen for 90 days, keeps the ones seen since; a resend of an expired caption starts a new cluster', async () => {
    const clock = clockAt(T0);
    const index = new CaptionIndex(redis, { prefix: freshPrefix(), clock: clock.now });
    // Night 1 (day 0): the seed gallery (joins, exact duplicates, aliases, trails).
    const night1 = await index.assignMany(seed.map((s) => ({ itemId: `n1-${s.n}`, caption: s.cleaned })));
    const base = index.keyBase;
    const before = await assertNothingDangles(base);
    expect(before.size).toBe(18);
    expect((await scanKeys(`${base}t:*`)).length).toBeGreaterThan(0);
    const idOf = (n: string) => night1[seed.findIndex((s) => s.n === n)]!.id;

    // Day 50: 34 and 04 are sent again (non-exact and exact): their clusters are seen again.
    clock.set(T0 + 50 * DAY);
    const s34 = seed.find((s) => s.n === '34')!;
    const s04 = seed.find((s) => s.n === '04')!;
    const again = await index.assignMany([
      { itemId: 'd50-34', caption: `${s34.cleaned} Picture taken later.` },
      { itemId: 'd50-04', caption: s04.cleaned },
    ]);
    expect(again[0]!.id).toBe(idOf('34'));
    expect(again[1]!.id).toBe(idOf('04'));

    // Day 100, window 90 days: everything else is idle.
    clock.set(T0 + 100 * DAY);
    const dry = await index.expireIdle({ retentionDays: 90, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, clustersRemoved: 16, done: true });
    expect(await assertNothingDangles(base)).toEqual(before);

    const report = await index.expireIdle({ retentionDays: 90 });
    expect(report).toMatchObject({ clustersRemoved: 16, clustersKept: 0, done: true, cutoff: new Date(T0 + 10 * DAY).toISOString() });
    expect(report.bucketEntriesRemoved).toBeGreaterThan(16 * 8);
    expect(report.aliasesRemoved).toBeGreaterThan(0);
    // The 41 seed items less the 34/04 families' (34-38, 32, 33: 7; 04, 05: 2) are no longer in the index.
    expect(report.membershipsRemoved).toBe(41 - 7 - 2);
    const after = await assertNothingDangles(base);
    expect([...after].sort()).toEqual([idOf('34'), idOf('04')].sort());
    expect(await index.getCluster(idOf('01'))).toBeNull();
    expect((await index.getCluster(idOf('34')))!.size).toBe(8);

    // A resend of an expired caption starts a new cluster: its item is the canonical, alone.
    const s01 = seed.find((s) => s.n === '01')!;
    const s08 = seed.find((s) => s.n === '08')!;
    const resent = await index.assign('d100-01', s01.cleaned);
    expect(resent).toMatchObject({ canonicalId: 'd100-01', similarity: 1, exact: true });
    expect((await index.getCluster(resent!.id))!.members.map((m) => m.itemId)).toEqual(['d100-01']);
    // 08 joined 01's cluster on night 1 through an alias of its words: that alias is gone, it joins the new cluster on its merits.
    const resent08 = await index.assign('d100-08', s08.cleaned);
    expect(resent08).toMatchObject({ id: resent!.id, canonicalId: 'd100-01', exact: false });
    // An item of night 1 assigned again (a retry long after) is new too, not 'known' in a removed cluster.
    const retried = await index.assign('n1-16', seed.find((s) => s.n === '16')!.cleaned);
    expect(retried).toMatchObject({ canonicalId: 'n1-16', exact: true });
    // A kept cluster still takes its resends.
    expect((await index.assign('d100-35', seed.find((s) => s.n === '35')!.cleaned))!.id).toBe(idOf('34'));
    await assertNothingDangles(base);

    // Idempotent: a second pass the same day finds nothing.
    expect(await index.expireIdle({ retentionDays: 90 })).toMatchObject({ clustersRemoved: 0, membershipsRemoved: 0, done: true });

    // Day 300: all idle; once expired, only the index's meta key is left.
    clock.set(T0 + 300 * DAY);
    await index.expireIdle({ retentionDays: 90 });
    await assertNothingDangles(base);
    expect(await scanKeys(`${base}*`)).toEqual([`${base}meta`]);
  });

  it('is bounded and resumable: a few clusters per call, the walk goes on where it stopped; a big cluster drains in several calls', async () => {
    const clock = clockAt(T0);
    const index = new CaptionIndex(redis, { prefix: freshPrefix(), clock: clock.now });
    // 60 different stories, and one story resent 1,300 times with one word changed each time:
    // a cluster of 1,301 members (more than one call's 500) with a long trail (new bands per edit).
    let state = 14;
    const rnd = (n: number) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n);
    const items = Array.from({ length: 60 }, (_, i) => ({
      itemId: `story-${i}`,
      caption: Array.from({ length: 20 }, () => `v${rnd(400)}`).join(' '),
    }));
    const big = 'Firefighters tackle a blaze at a warehouse in the harbour district of Marseille, southern France, as smoke rises over the old port on a windy afternoon while residents watch from the quay and police close the coastal road to traffic.';
    const words = big.split(' ');
    items.push({ itemId: 'big-0', caption: big });
    for (let i = 1; i <= 1300; i++) {
      const w = [...words];
      w[i % w.length] = `w${i}`;
      items.push({ itemId: `big-${i}`, caption: w.join(' ') });
    }
    const refs = await index.assignMany(items);
    const bigId = refs[60]!.id;
    expect(new Set(refs.slice(60).map((r) => r!.id))).toEqual(new Set([bigId]));
    const base = index.keyBase;
    expect(await redis.strlen(`${base}t:${bigId}`)).toBeGreaterThan(256 * 10);
    await assertNothingDangles(base);

    clock.set(T0 + 91 * DAY);
    let removed = 0;
    let calls = 0;
    let memberships = 0;
    for (;;) {
      const r = await index.expireIdle({ retentionDays: 90, maxClusters: 7 });
      calls++;
      expect(r.clustersRemoved).toBeLessThanOrEqual(7);
      removed += r.clustersRemoved;
      memberships += r.membershipsRemoved;
      if (r.done) break;
      expect(calls).toBeLessThan(20);
    }
    expect(removed).toBe(61);
    expect(calls).toBeGreaterThanOrEqual(9);
    expect(memberships).toBe(60 + 1301);
    await assertNothingDangles(base);
    expect(await scanKeys(`${base}*`)).toEqual([`${base}meta`]);
  });

  it('keeps a cluster that was seen again between the look and the removal', async () => {
    const clock = clockAt(T0);
    const prefix = freshPrefix();
    const index = new CaptionIndex(redis, { prefix, clock: clock.now });
    const s01 = seed.find((s) => s.n === '01')!;
    const ref = await index.assign('a', s01.cleaned);
    clock.set(T0 + 91 * DAY);
    // Another index (another worker) joins the cluster at day 91 while this pass runs: the
    // pass's script sees the new last-seen time and keeps it.
    const other = new CaptionIndex(redis, { prefix, clock: () => T0 + 91 * DAY });
    let joined = false;
    // The pass reads the idle cluster (c:, m:, t: in one MULTI), then calls its script: the join
    // lands in between.
    const spy = jest.spyOn(redis, 'multi');
    spy.mockImplementation(function (this: Redis, ...args: unknown[]) {
      const p = (Redis.prototype.multi as (...a: unknown[]) => ReturnType<Redis['multi']>).apply(this, args);
      const exec = p.exec.bind(p);
      p.exec = (async (...a: Parameters<typeof exec>) => {
        const out = await exec(...a);
        if (!joined) {
          joined = true;
          await other.assign('b', `${s01.cleaned} Picture taken with a mobile phone.`);
        }
        return out;
      }) as typeof p.exec;
      return p;
    });
    try {
      const r = await index.expireIdle({ retentionDays: 90 });
      expect(r).toMatchObject({ clustersRemoved: 0, clustersKept: 1 });
    } finally {
      spy.mockRestore();
    }
    expect((await index.getCluster(ref!.id))!.size).toBe(2);
    await assertNothingDangles(index.keyBase);
  });

  it('runs as part of the retention pass (runRetentionPass with the index as its captionIndex port)', async () => {
    const clock = clockAt(T0);
    const index = new CaptionIndex(redis, { prefix: freshPrefix(), clock: clock.now });
    await index.assignMany(seed.map((s) => ({ itemId: `n1-${s.n}`, caption: s.cleaned })));
    // No batches, no runs: fake catalog, jobs, runs and export ports (app-service ports, not ours to test here).
    const none: RetentionPorts = {
      catalog: {
        candidates: async () => [],
        facts: async () => {
          throw new Error('no batch');
        },
        archive: async () => undefined,
        unlinkLedger: async () => 0,
        itemIds: async function* () {},
        unlinkBatchKeys: async () => 0,
        unlist: async () => undefined,
        getCursor: async () => null,
        setCursor: async () => undefined,
      },
      jobs: { removeBatchJobs: async () => 0 },
      runs: { runsBefore: async () => [], removeRuns: async () => 0 },
      exports: { missing: async () => [] },
      logger: { info: () => undefined, warn: () => undefined },
      captionIndex: index,
    };
    const at = (days: number) => new Date(T0 + days * DAY);
    expect((await runRetentionPass(none, { now: at(60), retentionDays: 30, dedupRetentionDays: 90 })).captionIndex).toMatchObject({ clustersRemoved: 0, done: true });
    expect((await runRetentionPass(none, { now: at(91), retentionDays: 30, dedupRetentionDays: 90, dryRun: true })).captionIndex).toMatchObject({ clustersRemoved: 18 });
    expect(await assertNothingDangles(index.keyBase)).toHaveProperty('size', 18);
    expect((await runRetentionPass(none, { now: at(91), retentionDays: 30, dedupRetentionDays: 90 })).captionIndex).toMatchObject({ clustersRemoved: 18, membershipsRemoved: 41, done: true });
    expect(await scanKeys(`${index.keyBase}*`)).toEqual([`${index.keyBase}meta`]);
    // Without the window the pass leaves the index alone.
    expect((await runRetentionPass(none, { now: at(91), retentionDays: 30 })).captionIndex).toBeUndefined();
  });
});
