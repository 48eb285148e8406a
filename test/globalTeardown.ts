import type { RedisHandle } from '../src/adapters/redis/ensureRedis';

/** Stop the private redis-server of globalSetup, if it started one. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __photowireRedis?: RedisHandle }).__photowireRedis?.stop();
}
