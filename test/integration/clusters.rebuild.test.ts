import { copyFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { CatalogStore } from '../../src/adapters/redis/catalogStore';
import { rebuildCaptionIndex } from '../../src/adapters/redis/captionIndexRebuild';
import { redisKeys } from '../../src/adapters/redis/keys';
import type { CatalogRecord } from '../../src/schemas/record';
import { runCli } from '../helpers/cli';
import {
  REDIS_URL,
  REPO_ROOT,
  SEED_GALLERY,
  deletePrefix,
  makeTmpDir,
  removeDir,
  uniquePrefix,
} from '../helpers/testEnv';

/**
 * `photowire clusters rebuild`: a Redis that holds the old threshold index (and no caption-cluster
 * index) is refused at start with a message naming the rebuild; the rebuild builds a fresh index
 * from the catalog, patches every record's cluster to it (the old merge of two pictures undone),
 * deletes the old index's keys, and nothing is refused afterwards. Run again it gives the same
 * clusters and patches nothing; stopped half way, the index is refused until it runs to its end.
 */
describe('photowire clusters rebuild', () => {
  const prefix = uniquePrefix('clusters-rebuild');
  const dataDir = makeTmpDir('clusters-rebuild-data');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir };
  const redis = new Redis(REDIS_URL);
  const keys = redisKeys(prefix);
  const catalog = new CatalogStore(redis, prefix);

  beforeAll(() => {
    if (!existsSync(path.join(REPO_ROOT, 'dist/cli/main.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
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
  const runSeed = async () => {
    const feed = path.join(feedsDir, `night-${++nights}.txt`);
    copyFileSync(SEED_GALLERY, feed);
    const run = await runCli(['run', feed, '--json'], env);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout).batches[0].batchId as string;
  };
  const sizes = async (batchId: string) => {
    const out = await runCli(['clusters', '--batch', batchId], env);
    expect(out.code).toBe(0);
    return out.stdout
      .split('\n')
      .filter((l) => l.startsWith('cluster '))
      .map((l) => Number(/ (\d+) caption\(s\)/.exec(l)![1]));
  };
  const seedRecord = async (
    batchId: string,
    n: string,
  ): Promise<{ index: number; raw: string; record: CatalogRecord }> => {
    const index = Number(n) - 1;
    const [raw] = await catalog.rawRecords(batchId, [index]);
    return { index, raw: raw!, record: JSON.parse(raw!) as CatalogRecord };
  };

  /** Every record of these batches names the cluster `photowire clusters` lists it in, as the index holds it. */
  const expectRecordsAgree = async (batchIds: string[]) => {
    const listed = await runCli(['clusters', '--min-size', '1', '--json'], env);
    expect(listed.code).toBe(0);
    const clusters = JSON.parse(listed.stdout) as Array<{
      id: string;
      canonicalId: string;
      members: Array<{ itemId: string; similarity: number; exact: boolean }>;
    }>;
    const byItem = new Map(clusters.flatMap((c) => c.members.map((m) => [m.itemId, { c, m }] as const)));
    let checked = 0;
    for (const batchId of batchIds) {
      const records = await catalog.getRecords(batchId);
      for (const r of records.filter((x) => x.cluster !== null)) {
        const { c, m } = byItem.get(r.id)!;
        expect({
          id: r.cluster!.id,
          canonicalId: r.cluster!.canonicalId,
          similarity: r.cluster!.similarity,
          exact: r.cluster!.exact,
        }).toEqual({ id: c.id, canonicalId: c.canonicalId, similarity: m.similarity, exact: m.exact });
        // The diff and why are against the cluster's canonical caption: present exactly for the non-exact members.
        expect(r.cluster!.diff !== undefined).toBe(!m.exact);
        expect(r.cluster!.why !== undefined).toBe(!m.exact);
        checked++;
      }
      // The API's ?cluster= filter reads the record facets: the batch's members of each cluster.
      for (const c of clusters) {
        const mine = records
          .filter((r) => c.members.some((m) => m.itemId === r.id))
          .map((r) => r.index!)
          .sort((x, y) => x - y);
        if (mine.length === 0) continue;
        expect((await catalog.indexPage(batchId, [`c:${c.id}`], 0, -1)).indexes).toEqual(mine);
      }
    }
    expect(checked).toBe(41 * batchIds.length);
  };

  let a = '';
  it('refuses a Redis holding the old threshold index at start, then rebuilds from the catalog, undoing the old merges', async () => {
    a = await runSeed();
    // {01,02,03,07,11} {04,05} {08,09} {34,35} {36,38}: one subject about one picture each.
    expect(await sizes(a)).toEqual([5, 2, 2, 2, 2]);
    const own08 = (await seedRecord(a, '08')).record.cluster!;

    // A deployment of the old index: its pointer and keys, no index of the new rule, and records
    // that name the old clusters (08, the police, merged into 01's, the supporter).
    await redis.del(...(await redis.keys(`${keys.clusters.base.replace(/[{}]/g, '\\$&')}*`)));
    await redis.set(keys.dedup.active, `${prefix}:dedup:{v2t0.5}:`);
    await redis.set(`${prefix}:dedup:{v2t0.5}:c:0123456789abcdef`, 'old');
    const r01 = (await seedRecord(a, '01')).record.cluster!;
    const r08 = await seedRecord(a, '08');
    const merged = {
      ...r08.record,
      cluster: { id: r01.id, canonicalId: r01.canonicalId, similarity: 0.93, exact: false },
    };
    expect(
      await catalog.replaceRecords(a, [{ index: r08.index, before: r08.raw, after: JSON.stringify(merged) }]),
    ).toBe(true);

    const refused = await runCli(['clusters', '--batch', a], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('old threshold caption index');
    expect(refused.stderr).toContain('photowire clusters rebuild');
    const worker = await runCli(['run', path.join(feedsDir, 'night-1.txt')], env);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain('photowire clusters rebuild');

    const rebuild = await runCli(['clusters', 'rebuild'], env);
    expect(rebuild.code).toBe(0);
    expect(rebuild.stdout).toContain(
      `rebuilt ${keys.clusters.base} from 1 batch(es), 41 record(s), 41 caption(s): 33 cluster(s), 8 caption(s) joined one`,
    );
    expect(rebuild.stdout).toMatch(/patched the cluster of [1-9]\d* record\(s\)/);
    expect(rebuild.stdout).toMatch(/deleted 2 key\(s\) of the old threshold index/);
    expect(rebuild.stderr).toContain('rebuilding caption clusters: 100% 41/41'); // the progress bar (plain lines off a TTY)
    expect(await redis.exists(keys.dedup.active, `${prefix}:dedup:{v2t0.5}:c:0123456789abcdef`)).toBe(0);
    // Nothing refused afterwards; 08 has its own cluster again, apart from 01's.
    expect(await sizes(a)).toEqual([5, 2, 2, 2, 2]);
    expect((await seedRecord(a, '08')).record.cluster).toEqual(own08);
    expect((await seedRecord(a, '08')).record.cluster!.id).not.toBe(r01.id);
    await expectRecordsAgree([a]);
  }, 240_000);

  it('decides a new batch with the rebuilt index; a second rebuild gives the same clusters and patches nothing', async () => {
    const b = await runSeed();
    // The gallery resent: each cluster twice its size, the 28 single captions in pairs.
    expect(await sizes(b)).toEqual([10, 4, 4, 4, 4, ...Array(28).fill(2)]);
    const again = await runCli(['clusters', 'rebuild', '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      base: keys.clusters.base,
      batches: 2,
      records: 82,
      captions: 82,
      outcomes: { created: 33, joined: 49, known: 0 },
      patched: 0,
      oldKeysDeleted: 0,
    });
    await expectRecordsAgree([a, b]);
  }, 240_000);

  it('refuses the index while a rebuild is stopped half way, and serves it again once a rebuild ends', async () => {
    const stop = new Error('operator pressed ^C');
    await expect(
      rebuildCaptionIndex({
        redis,
        catalog,
        prefix,
        onProgress: (done) => {
          if (done >= 41) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    const refused = await runCli(['clusters'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('a rebuild stopped before its end');
    const out = await rebuildCaptionIndex({ redis, catalog, prefix });
    expect(out).toMatchObject({ batches: 2, captions: 82, patched: 0 });
    expect((await runCli(['clusters'], env)).code).toBe(0);
  }, 240_000);

  it('refuses an index built with other parameters until it is rebuilt', async () => {
    await redis.set(keys.clusters.meta, JSON.stringify({ rule: 0 }));
    const refused = await runCli(['clusters'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('was built with other parameters');
    expect(refused.stderr).toContain('photowire clusters rebuild');
    expect((await runCli(['clusters', 'rebuild'], env)).code).toBe(0);
    expect((await runCli(['clusters'], env)).code).toBe(0);
  }, 240_000);
});
