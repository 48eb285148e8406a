import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import { createRedis } from '../../src/adapters/redis/connection';
import { deletePrefixKeys } from '../../src/adapters/redis/scan';
import { clusterUrl, parseRedisClusterNodes } from '../../src/core/redisClusterNodes';

export const REPO_ROOT = path.resolve(__dirname, '../..');
import { SHARED_DIR } from './sharedDir';
export { SHARED_DIR };
export const SEED_GALLERY = path.join(SHARED_DIR, 'seeds/wire-gallery-2012.txt');
export const WIRE_IMAGES = path.join(SHARED_DIR, 'fixtures/wire-images');
/** The single Redis (tests about one Redis use it in every mode). */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The test matrix's one switch (`npm run test:cluster`, `npm run test:s3`,
 * scripts/test-matrix.sh): PHOTOWIRE_TEST_REDIS=cluster runs the pipeline tests against the
 * Redis Cluster that REDIS_CLUSTER_NODES names, PHOTOWIRE_TEST_STORAGE=s3 against the S3 bucket
 * that PHOTOWIRE_TEST_S3_BUCKET (with S3_ENDPOINT and the AWS keys) names. test/globalSetup.ts
 * starts the services (scripts/services/) when the variables are not set. Every config, child
 * environment and Redis connection a test gets from these helpers follows the switch.
 */
export const TEST_REDIS_MODE: 'single' | 'cluster' =
  process.env.PHOTOWIRE_TEST_REDIS === 'cluster' ? 'cluster' : 'single';
export const TEST_STORAGE_MODE: 'local' | 's3' = process.env.PHOTOWIRE_TEST_STORAGE === 's3' ? 's3' : 'local';

function clusterNodesForTests(): string {
  const nodes = process.env.REDIS_CLUSTER_NODES;
  if (!nodes)
    throw new Error(
      'PHOTOWIRE_TEST_REDIS=cluster but REDIS_CLUSTER_NODES is not set (test/globalSetup.ts starts one; run through `npm run test:cluster`)',
    );
  return nodes;
}

/** What createRedis opens for the tests' Redis: the single Redis, or (cluster mode) the cluster. */
export function testRedisUrl(): string {
  return TEST_REDIS_MODE === 'cluster' ? clusterUrl(parseRedisClusterNodes(clusterNodesForTests())) : REDIS_URL;
}

/** The Redis variables of a photowire process in this mode: REDIS_URL, or REDIS_CLUSTER_NODES. */
export function redisEnv(): Record<string, string> {
  return TEST_REDIS_MODE === 'cluster' ? { REDIS_URL: '', REDIS_CLUSTER_NODES: clusterNodesForTests() } : { REDIS_URL };
}

/** The variables that choose a process's storage: the target, the S3 server and its credentials. */
export const STORAGE_VARS = [
  'PHOTOWIRE_STORAGE',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_FORCE_PATH_STYLE',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
] as const;
const S3_VARS = STORAGE_VARS.filter((k) => k !== 'PHOTOWIRE_STORAGE');

/**
 * The storage variables of a photowire process whose key prefix is `prefix`: none (the local
 * PHOTOWIRE_DATA_DIR), or (s3 mode) `PHOTOWIRE_STORAGE=s3://<bucket>/<prefix>` and the S3 settings:
 * one bucket for the run, a folder of it per test pipeline.
 */
export function storageEnv(prefix: string): Record<string, string> {
  if (TEST_STORAGE_MODE !== 's3') return {};
  const bucket = process.env.PHOTOWIRE_TEST_S3_BUCKET;
  if (!bucket || !process.env.S3_ENDPOINT) {
    throw new Error(
      'PHOTOWIRE_TEST_STORAGE=s3 but PHOTOWIRE_TEST_S3_BUCKET/S3_ENDPOINT are not set (test/globalSetup.ts makes them; run through `npm run test:s3`)',
    );
  }
  const out: Record<string, string> = { PHOTOWIRE_STORAGE: `s3://${bucket}/${prefix}` };
  for (const k of S3_VARS) if (process.env[k]) out[k] = process.env[k]!;
  return out;
}

/**
 * The environment of a photowire process (the CLI, a worker) for one test: its key prefix and data
 * directory, and the Redis and storage of this mode.
 */
export function pipelineEnv(
  prefix: string,
  dataDir: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return { ...redisEnv(), ...storageEnv(prefix), PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir, ...extra };
}

export function uniquePrefix(label: string): string {
  return `pwtest-${label}-${randomBytes(4).toString('hex')}`;
}

export function makeTmpDir(label: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `photowire-${label}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The storage variables a test set in this process's environment (a worker reads them from its own). */
export function storageFromProcessEnv(): Record<string, string> {
  return Object.fromEntries(STORAGE_VARS.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
}

/** A config for one test: its own key prefix and data directory, quiet logs. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  // A test that names its own Redis (a private server it kills, a cluster) keeps it in every mode.
  const redis = 'REDIS_URL' in overrides || 'REDIS_CLUSTER_NODES' in overrides ? {} : redisEnv();
  return loadConfig({
    ...storageFromProcessEnv(),
    ...redis,
    PHOTOWIRE_PREFIX: uniquePrefix('t'),
    PHOTOWIRE_DATA_DIR: makeTmpDir('data'),
    LOG_LEVEL: 'silent',
    PHOTOWIRE_ATTEMPTS: '2',
    ...overrides,
  });
}

/** Delete every key under a prefix (SCAN + UNLINK); never FLUSHALL: the server is shared. */
export async function deletePrefix(prefix: string, url = testRedisUrl()): Promise<void> {
  // Both key layouts (src/adapters/redis/keys.ts: `<p>:*`, `{<p>:...}`, `{<p>}:`), on a Redis or a cluster URL.
  const r = createRedis(url);
  try {
    await deletePrefixKeys(r, prefix);
  } finally {
    r.disconnect();
  }
}
