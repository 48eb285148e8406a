import type { Redis } from 'ioredis';
import { luaFile, runScript } from './scripts';

// Only the holder may extend or drop a lease: a holder that stalled past its expiry must not
// release the lease a successor has since taken.
const RENEW = luaFile('pwRenewLease', 'lease/renew');
const RELEASE = luaFile('pwReleaseLease', 'lease/release');

/**
 * A lease in Redis (SET NX PX): who holds a hot-folder file (`{<p>:claim:<sha256>}`) or a schedule's run
 * (`{<p>:schedule:<name>}:lock`). It expires unless renewed, so a holder that dies frees it after
 * `ttlMs`; `keepAlive` renews it at a third of the ttl and reports when it was lost.
 */
export class Lease {
  private timer: NodeJS.Timeout | null = null;
  private lost = false;

  private constructor(
    private readonly redis: Redis,
    readonly key: string,
    readonly token: string,
    readonly ttlMs: number,
  ) {}

  static async acquire(redis: Redis, key: string, token: string, ttlMs: number): Promise<Lease | null> {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    return ok === 'OK' ? new Lease(redis, key, token, ttlMs) : null;
  }

  static async holder(redis: Redis, key: string): Promise<string | null> {
    return redis.get(key);
  }

  get isLost(): boolean {
    return this.lost;
  }

  async renew(): Promise<boolean> {
    const n = await runScript<number>(this.redis, RENEW, [this.key], [this.token, String(this.ttlMs)]);
    if (n !== 1) this.lost = true;
    return n === 1;
  }

  /** Renew in the background until released; `onLost` runs once if the lease could not be renewed. */
  keepAlive(onLost: () => void = () => undefined): void {
    if (this.timer) return;
    const tick = async () => {
      try {
        if (!(await this.renew())) {
          this.stopRenewing();
          onLost();
        }
      } catch {
        // A Redis blip: the next tick tries again; the ttl leaves room for two misses.
      }
    };
    this.timer = setInterval(() => void tick(), Math.max(50, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  stopRenewing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async release(): Promise<void> {
    this.stopRenewing();
    await runScript<number>(this.redis, RELEASE, [this.key], [this.token]);
  }
}
