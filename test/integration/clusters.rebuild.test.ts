import { copyFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { CatalogStore } from '../../src/adapters/redis/catalogStore';
import { rebuildCaptionIndex } from '../../src/adapters/redis/captionIndexRebuild';
import { redisKeys } from '../../src/adapters/redis/keys';
import { runCli } from '../helpers/cli';
import { REDIS_URL, REPO_ROOT, SEED_GALLERY, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';

/**
 * Issue 12, "a threshold change is a migration": a new PHOTOWIRE_DEDUP_THRESHOLD leaves the old
 * index serving until `photowire clusters rebuild` has built the new one from the catalog and
 * swapped `<prefix>:dedup:active`; a second rebuild adds nothing and starts after its cursor.
 */
describe('photowire clusters rebuild', () => {
  const prefix = uniquePrefix('clusters-rebuild');
  const dataDir = makeTmpDir('clusters-rebuild-data');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir };
  const at07 = { ...env, PHOTOWIRE_DEDUP_THRESHOLD: '0.7' };
  const redis = new Redis(REDIS_URL);
  const pointer = `${prefix}:dedup:active`;

  beforeAll(() => {
    if (!existsSync(path.join(REPO_ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  });
  afterAll(async () => {
    redis.disconnect();
    await deletePrefix(prefix);
    removeDir(dataDir);
    removeDir(feedsDir);
  });

  const feedsDir = makeTmpDir('clusters-rebuild-feeds');
  let nights = 0;
  /** The seed gallery as another night's feed (a batch id is the feed's path and content). */
  const runSeed = async (e: Record<string, string>) => {
    const feed = path.join(feedsDir, `night-${++nights}.txt`);
    copyFileSync(SEED_GALLERY, feed);
    const run = await runCli(['run', feed, '--json'], e);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout).batches[0].batchId as string;
  };
  const sizes = async (e: Record<string, string>, batchId: string) => {
    const out = await runCli(['clusters', '--batch', batchId], e);
    expect(out.code).toBe(0);
    return out.stdout.split('\n').filter((l) => l.startsWith('cluster ')).map((l) => Number(/ (\d+) caption\(s\)/.exec(l)![1]));
  };
  const keysOf = async (base: string) => {
    let cursor = '0';
    const keys = new Set<string>();
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${base}*`, 'COUNT', 1000);
      cursor = next;
      for (const k of found) keys.add(k);
    } while (cursor !== '0');
    return keys.size;
  };

  /** Every record of these batches names the cluster `photowire clusters` lists it in, as the index holds it. */
  const expectRecordsAgree = async (batchIds: string[]) => {
    const catalog = new CatalogStore(redis, prefix);
    const listed = await runCli(['clusters', '--min-size', '1', '--json'], at07);
    expect(listed.code).toBe(0);
    const clusters = JSON.parse(listed.stdout) as Array<{ id: string; canonicalId: string; canonicalCaption: string; members: Array<{ itemId: string; similarity: number; exact: boolean }> }>;
    const byItem = new Map(clusters.flatMap((c) => c.members.map((m) => [m.itemId, { c, m }] as const)));
    let checked = 0;
    for (const batchId of batchIds) {
      const records = await catalog.getRecords(batchId);
      for (const r of records.filter((x) => x.cluster !== null)) {
        const hit = byItem.get(r.id);
        expect(hit).toBeDefined();
        const { c, m } = hit!;
        expect({ id: r.cluster!.id, canonicalId: r.cluster!.canonicalId, similarity: r.cluster!.similarity, exact: r.cluster!.exact }).toEqual({ id: c.id, canonicalId: c.canonicalId, similarity: m.similarity, exact: m.exact });
        // The diff is against the new cluster's canonical caption: present exactly for the non-exact members.
        expect(r.cluster!.diff !== undefined).toBe(!m.exact);
        checked++;
      }
      // The API's ?cluster= filter reads the record facets: the batch's members of each cluster.
      for (const c of clusters) {
        const mine = records.filter((r) => c.members.some((m) => m.itemId === r.id)).map((r) => r.index!).sort((x, y) => x - y);
        if (mine.length === 0) continue;
        expect((await catalog.indexPage(batchId, [`c:${c.id}`], 0, -1)).indexes).toEqual(mine);
      }
    }
    expect(checked).toBe(41 * batchIds.length);
  };

  it('builds the new threshold index from the catalog, keeps the old one serving until the swap, then serves the new clusters; idempotent and resumable', async () => {
    // Seed families at 0.50 (issue 12): 8, 7, 4, 4, 3, 2, 2.
    const a = await runSeed(env);
    expect(await sizes(env, a)).toEqual([8, 7, 4, 4, 3, 2, 2]);
    expect(await redis.get(pointer)).toBe(`${prefix}:dedup:{v2t0.5}:`);

    // The operator changes the threshold: workers and the CLI keep the active (0.50) index until
    // the rebuild; a batch run meanwhile joins the 0.50 clusters (whole clusters: both batches).
    const b = await runSeed(at07);
    expect(await sizes(at07, b)).toEqual([16, 14, 8, 8, 6, 4, 4, ...Array(11).fill(2)]); // and the 11 single captions, sent twice
    expect(await keysOf(`${prefix}:dedup:{v2t0.7}:`)).toBe(0);

    const rebuild = await runCli(['clusters', 'rebuild'], at07);
    expect(rebuild.code).toBe(0);
    expect(rebuild.stdout).toContain(`rebuilt ${prefix}:dedup:{v2t0.7}: from 2 batch(es), 82 caption(s)`);
    expect(rebuild.stdout).toContain(`${pointer}: ${prefix}:dedup:{v2t0.5}: -> ${prefix}:dedup:{v2t0.7}:`);
    expect(rebuild.stderr).toContain('rebuilding caption index: 100% 82/82'); // the progress bar (plain lines off a TTY)
    expect(await redis.get(pointer)).toBe(`${prefix}:dedup:{v2t0.7}:`);
    // The 0.70 partition (docs/DEDUP.md sweep): {01-03,07-11} {33-36} {12-14} {04,05} {19,20} {25,26} {37,38} {40,41}, twice over.
    expect(await sizes(at07, a)).toEqual([16, 8, 6, 4, 4, 4, 4, 4, ...Array(16).fill(2)]);
    // The old index is kept (not served): its keys are still there.
    expect(await keysOf(`${prefix}:dedup:{v2t0.5}:`)).toBeGreaterThan(0);
    // The records were patched to the new clusters: `photowire clusters` (the index) and the
    // records (their cluster ref and diff, the API's ?cluster= facet) agree.
    expect(rebuild.stdout).toMatch(/patched the cluster of [1-9]\d* record\(s\) in 2 batch\(es\)/);
    await expectRecordsAgree([a, b]);

    // Again: nothing to do after the cursor, nothing added.
    const keysBefore = await keysOf(`${prefix}:dedup:{v2t0.7}:`);
    const again = await runCli(['clusters', 'rebuild', '--json'], at07);
    expect(again.code).toBe(0);
    const j = JSON.parse(again.stdout);
    expect(j).toMatchObject({ batches: 0, captions: 0, outcomes: { created: 0, joined: 0, known: 0 }, resumedAfter: b, previous: `${prefix}:dedup:{v2t0.7}:` });
    expect(await keysOf(`${prefix}:dedup:{v2t0.7}:`)).toBe(keysBefore);

    // After the swap a new batch is decided by the new index directly; a rebuild reads it (it is
    // after the cursor) and finds every caption already indexed.
    const c = await runSeed(at07);
    expect(await sizes(at07, c)).toEqual([24, 12, 9, 6, 6, 6, 6, 6, ...Array(16).fill(3)]);
    const keysWithC = await keysOf(`${prefix}:dedup:{v2t0.7}:`);
    const third = JSON.parse((await runCli(['clusters', 'rebuild', '--json'], at07)).stdout);
    expect(third).toMatchObject({ batches: 1, captions: 41, outcomes: { created: 0, joined: 0, known: 41 }, resumedAfter: b });
    expect(await keysOf(`${prefix}:dedup:{v2t0.7}:`)).toBe(keysWithC);
  }, 240_000); // three nights and seven CLI runs: minutes on a loaded box

  it('--since limits the batches by creation date; a bad date is a usage error', async () => {
    const batches = await redis.zrange(redisKeys(prefix).batches, '0', '-1', 'WITHSCORES');
    const last = Number(batches[batches.length - 1]);
    const e = { ...env, PHOTOWIRE_DEDUP_THRESHOLD: '0.6' };
    const out = await runCli(['clusters', 'rebuild', '--since', new Date(last).toISOString(), '--json'], e);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ batches: 1, captions: 41, base: `${prefix}:dedup:{v2t0.6}:` });
    expect(await redis.get(pointer)).toBe(`${prefix}:dedup:{v2t0.6}:`);
    const bad = await runCli(['clusters', 'rebuild', '--since', 'yesterday-ish'], e);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--since yesterday-ish');
  });

  it('resumes after the last batch done when a rebuild is interrupted, and swaps only at the end', async () => {
    const catalog = new CatalogStore(redis, prefix);
    const ids = await redis.zrange(redisKeys(prefix).batches, '0', '-1');
    expect(ids).toHaveLength(3);
    const activeBefore = await redis.get(pointer);
    // Interrupted once the second batch's captions are assigned: its cursor step never ran.
    const stop = new Error('operator pressed ^C');
    await expect(
      rebuildCaptionIndex({ redis, catalog, prefix, threshold: 0.8, onProgress: (done) => {
        if (done >= 82) throw stop;
      } }),
    ).rejects.toBe(stop);
    expect(await redis.get(pointer)).toBe(activeBefore); // no swap: the old index still serves
    expect(JSON.parse((await redis.get(`${prefix}:dedup:{v2t0.8}:rebuild`))!)).toMatchObject({ id: ids[0] });
    const out = await rebuildCaptionIndex({ redis, catalog, prefix, threshold: 0.8 });
    // Starts after batch 1; batch 2's captions were already in (known), batch 3's are new.
    expect(out).toMatchObject({ resumedAfter: ids[0], batches: 2, captions: 82, previous: activeBefore, base: `${prefix}:dedup:{v2t0.8}:` });
    expect(out.outcomes.known).toBe(41);
    expect(out.outcomes.created + out.outcomes.joined).toBe(41);
    expect(await redis.get(pointer)).toBe(`${prefix}:dedup:{v2t0.8}:`);
  });
});
