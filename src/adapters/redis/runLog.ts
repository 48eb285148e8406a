import type { Redis } from 'ioredis';
import { redisKeys, type RunKeys, type SourceKeys } from './keys';
import { luaFile, runScript } from './scripts';
import { FOLDED_TTL_MS } from '../../core/runs/foldEmptyRun';
import { WATCH_SCHEDULE, type RunRecord } from '../../core/runs/runRecord';
import type { SourceStatus } from '../../core/runs/stale';

/** lua/foldEmptyRun.lua: an empty check folded into the schedule's newest row when that is empty too, in one step. */
const FOLD = luaFile('pwFoldEmptyRun', 'foldEmptyRun');
const KEEP_RUNS = 5000;
const KEEP_RUNS_PER_SCHEDULE = 1000;

/**
 * Runs and the sources they read, in Redis under `{<p>:runs}` and `{<p>:sources}`
 * (src/adapters/redis/keys.ts). A run is saved when it starts and again when it ends, under
 * the same id, so a run resumed after a crash updates its record instead of adding one.
 */
export class RunLog {
  private readonly runKeys: RunKeys;
  private readonly sourceKeys: SourceKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    const keys = redisKeys(prefix);
    this.runKeys = keys.runs;
    this.sourceKeys = keys.sources;
  }

  /**
   * Save a run; an empty run of a schedule folds into the schedule's newest row when that one is
   * empty too (foldEmptyRun.ts). Returns the id of the row that shows it.
   */
  async save(run: RunRecord): Promise<string> {
    const score = Date.parse(run.startedAt);
    const k = this.runKeys;
    if (run.state === 'empty' && run.schedule !== WATCH_SCHEDULE) {
      let row: string | [string, string] = '';
      // The newest other row as seen now; the script refuses (stale) if another process saved meanwhile.
      let prevId = (await this.redis.zrevrange(k.bySchedule(run.schedule), 0, 1)).find((id) => id !== run.id) ?? '';
      for (let round = 0; round < 10; round++) {
        const keys = [k.all, k.bySchedule(run.schedule), k.run(run.id), ...(prevId ? [k.run(prevId)] : [])];
        row = await runScript<string | [string, string]>(this.redis, FOLD, keys, [
          JSON.stringify(run),
          run.id,
          String(score),
          prevId,
          String(FOLDED_TTL_MS),
        ]);
        if (!Array.isArray(row)) break;
        prevId = row[1];
      }
      if (Array.isArray(row))
        throw new Error(`run ${run.id}: its schedule's newest row kept changing while it was saved`);
      await this.trim(k.all, KEEP_RUNS, true);
      await this.trim(k.bySchedule(run.schedule), KEEP_RUNS_PER_SCHEDULE, false);
      return row;
    }
    await this.redis
      .multi()
      .set(k.run(run.id), JSON.stringify(run))
      .zadd(k.all, score, run.id)
      .zadd(k.bySchedule(run.schedule), score, run.id)
      .exec();
    await this.trim(k.all, KEEP_RUNS, true);
    await this.trim(k.bySchedule(run.schedule), KEEP_RUNS_PER_SCHEDULE, false);
    return run.id;
  }

  private async trim(zkey: string, keep: number, dropRecords: boolean): Promise<void> {
    const old = await this.redis.zrange(zkey, '0', String(-(keep + 1)));
    if (old.length === 0) return;
    const m = this.redis.multi().zrem(zkey, ...old);
    if (dropRecords) m.unlink(...old.map((id) => this.runKeys.run(id)));
    await m.exec();
  }

  async get(id: string): Promise<RunRecord | null> {
    const s = await this.redis.get(this.runKeys.run(id));
    return s ? (JSON.parse(s) as RunRecord) : null;
  }

  /** Newest first. */
  async list(opts: { schedule?: string; limit?: number } = {}): Promise<RunRecord[]> {
    const zkey = opts.schedule ? this.runKeys.bySchedule(opts.schedule) : this.runKeys.all;
    const ids = await this.redis.zrevrange(zkey, 0, (opts.limit ?? 50) - 1);
    if (ids.length === 0) return [];
    const values = await this.redis.mget(...ids.map((id) => this.runKeys.run(id)));
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as RunRecord);
  }

  private sourceKey(kind: SourceStatus['kind'], name: string): string {
    return this.sourceKeys.source(kind, name);
  }

  /** Start tracking a source's silence; keeps the first `since` when registered again. */
  async registerSource(kind: SourceStatus['kind'], name: string, source: string, now: number): Promise<void> {
    const key = this.sourceKey(kind, name);
    await this.redis
      .multi()
      .hsetnx(key, 'since', String(now))
      .hset(key, { kind, name, source })
      .sadd(this.sourceKeys.all, `${kind}:${name}`)
      .exec();
  }

  async touchSource(
    kind: SourceStatus['kind'],
    name: string,
    at: { checkedAt: number; newAt?: number },
  ): Promise<void> {
    const fields: Record<string, string> = { lastCheckAt: String(at.checkedAt) };
    if (at.newAt !== undefined) fields.lastNewAt = String(at.newAt);
    await this.redis.hset(this.sourceKey(kind, name), fields);
  }

  async removeSource(kind: SourceStatus['kind'], name: string): Promise<void> {
    await this.redis.multi().unlink(this.sourceKey(kind, name)).srem(this.sourceKeys.all, `${kind}:${name}`).exec();
  }

  async sources(): Promise<SourceStatus[]> {
    const ids = (await this.redis.smembers(this.sourceKeys.all)).sort();
    const out: SourceStatus[] = [];
    for (const id of ids) {
      const colon = id.indexOf(':');
      const h = await this.redis.hgetall(
        this.sourceKey(id.slice(0, colon) as SourceStatus['kind'], id.slice(colon + 1)),
      );
      if (!h.kind) continue;
      out.push({
        kind: h.kind as SourceStatus['kind'],
        name: h.name,
        source: h.source,
        since: Number(h.since),
        lastNewAt: h.lastNewAt ? Number(h.lastNewAt) : null,
        lastCheckAt: h.lastCheckAt ? Number(h.lastCheckAt) : null,
      });
    }
    return out;
  }
}
