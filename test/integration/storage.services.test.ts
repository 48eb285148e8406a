import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Cluster } from 'ioredis';
import { cephRgw, redisCluster } from '../helpers/services';
import { createBucket, dropBucket, s3Storage, uniqueBucket } from '../helpers/s3Bucket';
import { scaledMs } from '../helpers/deadline';

/**
 * The project's own services scripts (scripts/services/), started fresh here (never reused) so
 * a clone without anything running gets them too, and timed: CI has 90 minutes in all
 * (start-up times are recorded in docs/SCALING.md). Stopping leaves no daemon and no folder.
 */

function pidsOf(dir: string): number[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.pid'))
    .map((f) => Number(readFileSync(path.join(dir, f), 'utf8').trim()));
}

/** Pids still alive after up to 15 s (a SIGKILLed memstore OSD takes a few seconds to be torn down). */
async function survivors(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 150 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const rgw = cephRgw({ reuse: false });
rgw.describe('scripts/services/ceph-rgw.sh', () => {
  it('starts a Ceph RGW that takes conditional S3 writes, within a minute, and stops it by pid', async () => {
    await rgw.start();
    const dir = rgw.dir()!;
    process.stderr.write(`tests: ceph-rgw.sh start took ${rgw.startMs()} ms\n`);
    expect(rgw.startMs()).toBeLessThan(scaledMs(60_000));
    const pids = pidsOf(dir);
    expect(pids).toHaveLength(3);
    const env = rgw.env();
    expect(env.S3_ENDPOINT).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const bucket = uniqueBucket('services');
    await createBucket(env, bucket);
    const s = s3Storage(env, `s3://${bucket}/x`);
    await s.open();
    expect(await s.putIfAbsent('k', 'one')).toBe('created');
    expect(await s.putIfAbsent('k', 'two')).toBe('exists');
    await s.close();
    await dropBucket(env, bucket);
    const t0 = Date.now();
    await rgw.stop();
    process.stderr.write(`tests: ceph-rgw.sh stop took ${Date.now() - t0} ms\n`);
    expect(existsSync(dir)).toBe(false);
    expect(await survivors(pids)).toEqual([]);
  }, 600_000);
});

const cluster = redisCluster({ reuse: false });
cluster.describe('scripts/services/redis-cluster.sh', () => {
  it('starts three masters sharing all 16384 slots, keys land on every master, and stops them', async () => {
    await cluster.start();
    const dir = cluster.dir()!;
    process.stderr.write(`tests: redis-cluster.sh start took ${cluster.startMs()} ms\n`);
    expect(cluster.startMs()).toBeLessThan(scaledMs(30_000));
    const { nodes } = cluster.env();
    expect(nodes).toHaveLength(3);
    const pids = pidsOf(dir);
    expect(pids).toHaveLength(3);
    const c = new Cluster(nodes, { redisOptions: { maxRetriesPerRequest: 3 } });
    try {
      const slots = await c.cluster('SLOTS');
      const covered = slots.reduce((n, [from, to]) => n + (to - from + 1), 0);
      expect(covered).toBe(16384);
      expect(new Set(slots.map((s) => s[2]![1])).size).toBe(3);
      for (let i = 0; i < 30; i++) await c.set(`pwtest:services:${i}`, String(i));
      const perMaster = await Promise.all(c.nodes('master').map((n) => n.dbsize()));
      expect(perMaster.every((n) => n > 0)).toBe(true);
      expect(await c.get('pwtest:services:7')).toBe('7');
    } finally {
      c.disconnect();
    }
    await cluster.stop();
    expect(existsSync(dir)).toBe(false);
    expect(await survivors(pids)).toEqual([]);
  }, 300_000);
});
