import { ping, startPrivateRedis, type RedisHandle } from '../src/adapters/redis/ensureRedis';

/**
 * The README promises that `npm test` passes on a machine where nothing answers on 6379 as long
 * as `redis-server` is on PATH, as `photowire run` does: start a private one for the whole run
 * and point every test (and every process the tests spawn) at it through REDIS_URL.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.REDIS_URL) return;
  if (await ping('redis://127.0.0.1:6379', 1000)) return;
  const handle: RedisHandle = await startPrivateRedis();
  process.env.REDIS_URL = handle.url;
  // Tests that are about the machine's own Redis on 6379 skip with a message when this is set.
  process.env.PHOTOWIRE_TEST_PRIVATE_REDIS = '1';
  (globalThis as { __photowireRedis?: RedisHandle }).__photowireRedis = handle;
  process.stderr.write(`\ntests: nothing answers on 127.0.0.1:6379; started a private redis-server at ${handle.url} for this run\n`);
}
