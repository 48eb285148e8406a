import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { readSeedCaptions } from '../../bench/dedup/seedCaptions';
import { SubjectIndex, lastSeenNow, LAST_SEEN_STEP_SECONDS } from '../../src/adapters/redis/captionIndexSubject';
import { runRetentionPass, type RetentionPorts } from '../../src/app/retention/retentionPass';

/**
 * Retention of the caption-cluster index (PHOTOWIRE_DEDUP_RETENTION_DAYS): a cluster not created or
 * joined within the window leaves the index whole (canonical, members, memberships, buckets, size
 * and last-seen entries), one seen within it stays, and a later resend of a removed caption starts
 * a new cluster. Through the retention pass, as the scheduled job runs it.
 */
jest.setTimeout(120_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
let redis: Redis;
const indexes: SubjectIndex[] = [];

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  for (const ix of indexes) await ix.deleteAll();
  await redis.quit();
});

function index(clock: () => number, prefix = `pwtest:${randomBytes(6).toString('hex')}`): SubjectIndex {
  const ix = new SubjectIndex(redis, { prefix, clock });
  indexes.push(ix);
  return ix;
}

async function keysOf(ix: SubjectIndex): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${ix.keys.base.replace(/[{}]/g, '\\$&')}*`, 'COUNT', 1000);
    cursor = next;
    out.push(...found);
  } while (cursor !== '0');
  return out.sort();
}

describe('retention of the caption-cluster index', () => {
  it('records last-seen times in whole hours', () => {
    const at = T0 + 5 * 3600_000 + 1234_567;
    expect(lastSeenNow(at)).toBe(Math.floor((T0 + 5 * 3600_000) / 1000));
    expect(lastSeenNow(at) % LAST_SEEN_STEP_SECONDS).toBe(0);
  });

  it('removes the clusters idle past the window, keeps one joined within it, and a resend of a removed caption starts anew', async () => {
    let now = T0;
    const prefix = `pwtest:${randomBytes(6).toString('hex')}`;
    const ix = index(() => now, prefix);
    // Another process (a second worker) on the same index, with its own cache of canonicals.
    const other = index(() => now, prefix);
    const police = 'Police officers stand outside the Embassy of Ecuador in London, June 22, 2012.';
    const media = 'Members of the media gather outside the Embassy of Ecuador in London, June 22, 2012.';
    const [p1, , m1] = await ix.assignMany([
      { itemId: 'p1', caption: police },
      { itemId: 'p2', caption: `${police} Julian Assange is inside.` },
      { itemId: 'm1', caption: media },
    ]);
    expect(p1!.id).not.toBe(m1!.id);
    // The other process reads the police cluster (p1 canonical) into its cache.
    expect((await other.assignMany([{ itemId: 'p0', caption: `${police} Rain falls.` }]))[0]).toMatchObject({
      id: p1!.id,
      canonicalId: 'p1',
    });
    // Day 60: the media picture is resent, its cluster seen again.
    now = T0 + 60 * DAY;
    expect((await ix.assignMany([{ itemId: 'm2', caption: media }]))[0]!.id).toBe(m1!.id);

    // Day 91, 90 days' window: the police cluster (seen on day 0) is idle, the media one (day 60) is not.
    const at91 = new Date(T0 + 91 * DAY);
    expect(await ix.expireIdle({ now: at91, retentionDays: 90, dryRun: true })).toMatchObject({
      dryRun: true,
      clustersRemoved: 1,
      done: true,
    });
    expect(await ix.getCluster(p1!.id)).not.toBeNull();
    const report = await ix.expireIdle({ now: at91, retentionDays: 90 });
    expect(report).toMatchObject({ clustersRemoved: 1, membershipsRemoved: 3, done: true });
    expect(report.bucketEntriesRemoved).toBeGreaterThan(0);
    expect(await ix.getCluster(p1!.id)).toBeNull();
    expect((await ix.getCluster(m1!.id))!.members.map((m) => m.itemId)).toEqual(['m1', 'm2']);
    expect((await ix.listClusters({ minSize: 2 })).map((c) => c.id)).toEqual([m1!.id]);
    // Nothing of the police cluster is left: no key names it, no bucket holds its id.
    const left = await keysOf(ix);
    expect(left.filter((k) => k.includes(p1!.id))).toEqual([]);
    for (const k of left.filter((x) => x.startsWith(ix.keys.bucket(0).slice(0, -1)))) {
      for (const v of Object.values(await redis.hgetall(k))) expect(v).not.toContain(p1!.id);
    }
    // A resend after removal starts a new cluster (of the same head: the same id) with itself as canonical.
    now = T0 + 92 * DAY;
    const again = await ix.assignMany([
      { itemId: 'p3', caption: police },
      { itemId: 'p2', caption: `${police} Julian Assange is inside.` },
    ]);
    expect(again[0]).toEqual({ id: p1!.id, canonicalId: 'p3', similarity: 1, exact: true });
    expect(again[1]).toMatchObject({ id: p1!.id, canonicalId: 'p3', exact: false, why: { background: 'appended' } });
    // The other process had the removed cluster in its cache: it reads the new canonical, p3.
    expect((await other.assignMany([{ itemId: 'p4', caption: `${police} More police arrive.` }]))[0]).toMatchObject({
      id: p1!.id,
      canonicalId: 'p3',
    });
    // A second pass finds nothing more.
    expect(await ix.expireIdle({ now: at91, retentionDays: 90 })).toMatchObject({ clustersRemoved: 0, done: true });
  });

  it('stops after maxClusters and goes on from there on the next call', async () => {
    const ix = index(() => T0);
    const seed = readSeedCaptions();
    const refs = await ix.assignMany(seed.map((s) => ({ itemId: s.n, caption: s.raw })));
    const clusters = new Set(refs.map((r) => r!.id)).size;
    const at = new Date(T0 + 100 * DAY);
    const first = await ix.expireIdle({ now: at, retentionDays: 90, maxClusters: 10 });
    expect(first).toMatchObject({ clustersRemoved: 10, done: false });
    const rest = await ix.expireIdle({ now: at, retentionDays: 90 });
    expect(rest).toMatchObject({ clustersRemoved: clusters - 10, done: true });
    expect(rest.membershipsRemoved + first.membershipsRemoved).toBe(41);
    expect(await keysOf(ix)).toEqual([ix.keys.generation, ix.keys.meta].sort());
  });

  it('runs in the retention pass when PHOTOWIRE_DEDUP_RETENTION_DAYS is given', async () => {
    const ix = index(() => T0);
    const seed = readSeedCaptions();
    const refs = await ix.assignMany(seed.map((s) => ({ itemId: s.n, caption: s.raw })));
    const clusters = new Set(refs.map((r) => r!.id)).size;
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
      captionIndex: ix,
    };
    const at = (days: number) => new Date(T0 + days * DAY);
    expect(
      (await runRetentionPass(none, { now: at(60), retentionDays: 30, dedupRetentionDays: 90 })).captionIndex,
    ).toMatchObject({ clustersRemoved: 0, done: true });
    expect(
      (await runRetentionPass(none, { now: at(91), retentionDays: 30, dedupRetentionDays: 90, dryRun: true }))
        .captionIndex,
    ).toMatchObject({ clustersRemoved: clusters });
    expect(
      (await runRetentionPass(none, { now: at(91), retentionDays: 30, dedupRetentionDays: 90 })).captionIndex,
    ).toMatchObject({ clustersRemoved: clusters, membershipsRemoved: 41, done: true });
    expect(await keysOf(ix)).toEqual([ix.keys.generation, ix.keys.meta].sort());
    // Without the window the pass leaves the index alone.
    expect((await runRetentionPass(none, { now: at(91), retentionDays: 30 })).captionIndex).toBeUndefined();
  });
});
