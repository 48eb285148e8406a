import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/config';
import { createRedis } from '../../src/adapters/redis/connection';
import { deletePrefixKeys } from '../../src/adapters/redis/scan';

export const REPO_ROOT = path.resolve(__dirname, '../..');
/** Copies of the team's shared material (test/fixtures/shared/ORIGIN.md); PHOTOWIRE_SHARED_DIR points elsewhere. */
export const SHARED_DIR = process.env.PHOTOWIRE_SHARED_DIR ?? path.join(REPO_ROOT, 'test/fixtures/shared');
export const SEED_GALLERY = path.join(SHARED_DIR, 'seeds/wire-gallery-2012.txt');
export const WIRE_IMAGES = path.join(SHARED_DIR, 'fixtures/wire-images');
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function uniquePrefix(label: string): string {
  return `pwtest-${label}-${randomBytes(4).toString('hex')}`;
}

export function makeTmpDir(label: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `photowire-${label}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A config for one test: its own key prefix and data directory, quiet logs. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    REDIS_URL,
    PHOTOWIRE_PREFIX: uniquePrefix('t'),
    PHOTOWIRE_DATA_DIR: makeTmpDir('data'),
    LOG_LEVEL: 'silent',
    PHOTOWIRE_ATTEMPTS: '2',
    ...overrides,
  });
}

/** Delete every key under a prefix (SCAN + UNLINK); never FLUSHALL: the server is shared. */
export async function deletePrefix(prefix: string, url = REDIS_URL): Promise<void> {
  // Both key layouts (src/adapters/redis/keys.ts: `<p>:*`, `{<p>:...}`, `{<p>}:`), on a Redis or a cluster URL.
  const r = createRedis(url);
  try {
    await deletePrefixKeys(r, prefix);
  } finally {
    r.disconnect();
  }
}
