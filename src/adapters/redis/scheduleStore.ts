import type { Redis } from 'ioredis';
import { redisKeys, type RedisKeys } from './keys';
import type { LoadedFeed } from '../feeds/loadFeed';
import type { RunTrigger } from '../../core/runs/runRecord';
import { decodeCursor, encodeCursorEntry, type Cursor, type Keyed } from '../../core/schedules/cursor';

/**
 * A run between choosing what is new and committing the cursor. Kept in Redis so that a run
 * interrupted by a crash is finished by the next run of its schedule, with the same batch,
 * instead of being started again (which would take the same files twice).
 */
export interface PendingRun {
  runId: string;
  trigger: RunTrigger;
  startedAt: string;
  source: string;
  feed: LoadedFeed;
  /** Cursor entries to add once the batch is done. */
  commit: Keyed[];
  /** Cursor keys to forget (gone from the source long ago). */
  prune: string[];
}

/** Per-schedule state under `{<p>:schedule:<name>}:` (one slot): the cursor, the pending run, the run lock. */
export class ScheduleStore {
  private readonly keys: RedisKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  private k(name: string, what: 'cursor' | 'pending' | 'lock'): string {
    return this.keys.schedule(name)[what];
  }

  lockKey(name: string): string {
    return this.k(name, 'lock');
  }

  async cursor(name: string): Promise<Cursor> {
    return decodeCursor(await this.redis.hgetall(this.k(name, 'cursor')));
  }

  async pending(name: string): Promise<PendingRun | null> {
    const s = await this.redis.get(this.k(name, 'pending'));
    return s ? (JSON.parse(s) as PendingRun) : null;
  }

  async setPending(name: string, p: PendingRun): Promise<void> {
    await this.redis.set(this.k(name, 'pending'), JSON.stringify(p));
  }

  /** The run's batch is done: its entries join the cursor and it stops being pending, in one step. */
  async commit(name: string, p: PendingRun, takenAt: number): Promise<void> {
    const m = this.redis.multi();
    if (p.commit.length)
      m.hset(
        this.k(name, 'cursor'),
        Object.fromEntries(p.commit.map((e) => [e.key, encodeCursorEntry({ signature: e.signature, takenAt })])),
      );
    if (p.prune.length) m.hdel(this.k(name, 'cursor'), ...p.prune);
    m.del(this.k(name, 'pending'));
    await m.exec();
  }

  /** Forget what a schedule has taken: its next run takes everything in its source again. */
  async reset(name: string): Promise<void> {
    await this.redis.del(this.k(name, 'cursor'), this.k(name, 'pending'));
  }
}
