import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { ping, startPrivateRedis, type RedisHandle } from '../src/adapters/redis/ensureRedis';

/**
 * The README promises that `npm test` passes on a machine where nothing answers on 6379 as long
 * as `redis-server` is on PATH, as `photowire run` does: start a private one for the whole run
 * and point every test (and every process the tests spawn) at it through REDIS_URL.
 *
 * The test matrix (test/helpers/testEnv.ts, scripts/test-matrix.sh): with PHOTOWIRE_TEST_REDIS=cluster
 * and no REDIS_CLUSTER_NODES, start a three-master Redis Cluster (scripts/services/redis-cluster.sh);
 * with PHOTOWIRE_TEST_STORAGE=s3 and no S3_ENDPOINT, a Ceph RGW (scripts/services/ceph-rgw.sh), and
 * in either case one bucket for the run (PHOTOWIRE_TEST_S3_BUCKET). Test files inherit the variables;
 * globalTeardown drops the bucket and stops what was started here.
 */
type Started = { script: string; dir: string }[];
const state = globalThis as {
  __photowireRedis?: RedisHandle;
  __photowireServices?: Started;
  __photowireBucket?: string;
};

function startService(script: string, dirVar: string): Record<string, string> {
  const t0 = Date.now();
  const out = execFileSync('bash', [path.join(__dirname, '..', 'scripts/services', script), 'start'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 600_000,
  });
  const vars: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) vars[m[1]!] = m[2]!;
  }
  if (!vars[dirVar]) throw new Error(`${script} start printed no ${dirVar}`);
  (state.__photowireServices ??= []).push({ script, dir: vars[dirVar]! });
  process.stderr.write(
    `tests: started ${script} in ${((Date.now() - t0) / 1000).toFixed(1)} s for PHOTOWIRE_TEST_* mode\n`,
  );
  return vars;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.PHOTOWIRE_TEST_REDIS === 'cluster' && !process.env.REDIS_CLUSTER_NODES) {
    process.env.REDIS_CLUSTER_NODES = startService('redis-cluster.sh', 'REDIS_CLUSTER_DIR').REDIS_CLUSTER_NODES;
  }
  if (process.env.PHOTOWIRE_TEST_STORAGE === 's3') {
    if (!process.env.S3_ENDPOINT) {
      const v = startService('ceph-rgw.sh', 'CEPH_RGW_DIR');
      for (const k of ['S3_ENDPOINT', 'S3_REGION', 'S3_FORCE_PATH_STYLE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])
        if (v[k]) process.env[k] = v[k];
    }
    if (!process.env.PHOTOWIRE_TEST_S3_BUCKET) {
      const { createBucket, uniqueBucket } = await import('./helpers/s3Bucket');
      const bucket = uniqueBucket('matrix');
      await createBucket(s3EnvFromProcess(), bucket);
      process.env.PHOTOWIRE_TEST_S3_BUCKET = state.__photowireBucket = bucket;
    }
  }
  if (process.env.PHOTOWIRE_TEST_REDIS || process.env.PHOTOWIRE_TEST_STORAGE) {
    process.stderr.write(
      `\ntests: matrix mode redis=${process.env.PHOTOWIRE_TEST_REDIS ?? 'single'}${process.env.REDIS_CLUSTER_NODES ? ` (${process.env.REDIS_CLUSTER_NODES})` : ''} storage=${process.env.PHOTOWIRE_TEST_STORAGE ?? 'local'}${process.env.PHOTOWIRE_TEST_S3_BUCKET ? ` (s3://${process.env.PHOTOWIRE_TEST_S3_BUCKET} at ${process.env.S3_ENDPOINT})` : ''}\n`,
    );
  }

  if (process.env.REDIS_URL) return;
  if (await ping('redis://127.0.0.1:6379', 1000)) return;
  const handle: RedisHandle = await startPrivateRedis();
  process.env.REDIS_URL = handle.url;
  // Tests that are about the machine's own Redis on 6379 skip with a message when this is set.
  process.env.PHOTOWIRE_TEST_PRIVATE_REDIS = '1';
  state.__photowireRedis = handle;
  process.stderr.write(
    `\ntests: nothing answers on 127.0.0.1:6379; started a private redis-server at ${handle.url} for this run\n`,
  );
}

export function s3EnvFromProcess() {
  const e = process.env;
  return {
    S3_ENDPOINT: e.S3_ENDPOINT!,
    S3_REGION: e.S3_REGION || 'us-east-1',
    S3_FORCE_PATH_STYLE: e.S3_FORCE_PATH_STYLE || 'true',
    AWS_ACCESS_KEY_ID: e.AWS_ACCESS_KEY_ID!,
    AWS_SECRET_ACCESS_KEY: e.AWS_SECRET_ACCESS_KEY!,
  };
}
