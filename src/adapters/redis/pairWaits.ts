import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisKeys, type RedisKeys } from './keys';

/**
 * A hot folder's pair waits, kept in Redis so they survive a restart and are shared by every
 * watcher of the folder: since when each dropped entry (a delivery's XML item, or a picture) has
 * waited for its pair, and whether the folder receives deliveries at all. The first watcher to
 * see an entry waiting sets its time (HSETNX); a restarted watcher goes on from it instead of
 * waiting the whole PHOTOWIRE_PAIR_WAIT again.
 */
export class PairWaits {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    /** Both keys outlive the waits they hold by far; each write renews them. */
    private readonly ttlMs = 30 * 86_400_000,
  ) {
    this.keys = redisKeys(prefix);
  }

  private sha(dir: string): string {
    return createHash('sha256').update(dir).digest('hex');
  }

  /** Since when `name` has waited (`now` when this is the first time it is asked). */
  async since(dir: string, name: string, now: number): Promise<number> {
    const key = this.keys.pairWaits(this.sha(dir));
    const replies = await this.redis
      .multi()
      .hsetnx(key, name, String(now))
      .pexpire(key, this.ttlMs)
      .hget(key, name)
      .exec();
    const [err, got] = replies?.[2] ?? [null, null];
    if (err) throw err;
    const n = Number(got);
    return Number.isFinite(n) && n > 0 ? n : now;
  }

  /** The entries were taken: they no longer wait. */
  async clear(dir: string, names: string[]): Promise<void> {
    if (names.length) await this.redis.hdel(this.keys.pairWaits(this.sha(dir)), ...names);
  }

  /** The folder has received a delivery whose XML names pictures: from now on a picture waits for its item. */
  async markDelivery(dir: string, now: number): Promise<void> {
    await this.redis.set(this.keys.deliveryFolder(this.sha(dir)), String(now), 'PX', this.ttlMs);
  }

  async isDelivery(dir: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.deliveryFolder(this.sha(dir)))) === 1;
  }
}
