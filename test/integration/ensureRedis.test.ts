import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { NoRedisError, ensureRedis, startPrivateRedis } from '../../src/adapters/redis/ensureRedis';

describe('finding a Redis', () => {
  it('starts a private redis-server that answers and is gone, with its folder, after stop', async () => {
    const h = await startPrivateRedis();
    expect(h.private).toBe(true);
    expect(h.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    expect(h.url).not.toBe('redis://127.0.0.1:6379');
    const r = new Redis(h.url);
    expect(await r.ping()).toBe('PONG');
    const dir = (await r.config('GET', 'dir')) as string[];
    r.disconnect();
    await h.stop();
    expect(existsSync(dir[1])).toBe(false);
    const after = new Redis(h.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    after.on('error', () => undefined);
    await expect(after.connect()).rejects.toThrow();
    after.disconnect();
  });

  it('says how to get Redis when there is no redis-server to start', async () => {
    const err = await startPrivateRedis(null).catch((e) => e);
    expect(err).toBeInstanceOf(NoRedisError);
    expect(err.message).toMatch(/REDIS_URL/);
    expect(err.message).toMatch(/apt-get install redis-server/);
  });

  it('refuses a REDIS_URL that does not answer, naming it', async () => {
    const err = await ensureRedis('redis://127.0.0.1:1', { allowPrivate: true }).catch((e) => e);
    expect(err).toBeInstanceOf(NoRedisError);
    expect(err.message).toContain('REDIS_URL=redis://127.0.0.1:1 does not answer');
  });

  // Under a private test Redis (test/globalSetup.ts) nothing answers on 6379: the case is the CLI test's.
  const onLocal6379 = process.env.PHOTOWIRE_TEST_PRIVATE_REDIS !== '1';
  if (!onLocal6379)
    console.warn(
      'skipped: nothing answers on 127.0.0.1:6379 on this machine (the tests run on a private redis-server)',
    );
  (onLocal6379 ? it : it.skip)('uses the Redis on 127.0.0.1:6379 when REDIS_URL is unset', async () => {
    const h = await ensureRedis(undefined, { allowPrivate: false });
    expect(h).toMatchObject({ url: 'redis://127.0.0.1:6379', private: false });
  });
});
