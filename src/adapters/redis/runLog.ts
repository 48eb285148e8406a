import type { Redis } from 'ioredis';
import { redisKeys, type RunKeys, type SourceKeys } from './keys';
import { luaScript, runScript } from './scripts';
import { FOLDED_TTL_MS } from '../../core/runs/foldEmptyRun';
import { WATCH_SCHEDULE, type RunRecord } from '../../core/runs/runRecord';
import type { SourceStatus } from '../../core/runs/stale';

/**
 * KEYS[1] all runs by start, KEYS[2] the schedule's runs by start, KEYS[3] this run's record,
 * KEYS[4] the record of the schedule's newest other row as the caller saw it (absent: none);
 * all in the `{<p>:runs}` slot (src/adapters/redis/keys.ts).
 * ARGV[1] the run (JSON, state empty), ARGV[2] its id, ARGV[3] its score (start, ms),
 * ARGV[4] the id of that newest other row ('' for none), ARGV[5] FOLDED_TTL_MS.
 * When the newest other row is no longer ARGV[4] (another process saved meanwhile), nothing is
 * written and it returns {'stale', id}: the caller calls again with that row's key.
 * If the schedule's newest other row is empty, the run is folded into it (checks + 1, lastAt,
 * finishedAt and note of this run) and its own record kept for ARGV[5] ms, unlisted; else it is
 * saved as a row. Returns the id of the row that shows it. In one step, so two scheduler
 * processes saving at once never lose a check or make two rows of one stretch.
 */
const FOLD_EMPTY_RUN = `
local ids = redis.call('ZREVRANGE', KEYS[2], 0, 1)
local prevId = nil
for _, id in ipairs(ids) do
  if id ~= ARGV[2] then prevId = id break end
end
if (prevId or '') ~= ARGV[4] then return {'stale', prevId or ''} end
if prevId then
  local prevKey = KEYS[4]
  local raw = redis.call('GET', prevKey)
  if raw then
    local prev = cjson.decode(raw)
    if prev.state == 'empty' then
      local run = cjson.decode(ARGV[1])
      prev.checks = (tonumber(prev.checks) or 1) + 1
      prev.lastAt = run.startedAt
      prev.finishedAt = run.finishedAt
      prev.note = run.note
      redis.call('SET', prevKey, cjson.encode(prev))
      redis.call('ZREM', KEYS[1], ARGV[2])
      redis.call('ZREM', KEYS[2], ARGV[2])
      run.foldedInto = prevId
      redis.call('SET', KEYS[3], cjson.encode(run), 'PX', ARGV[5])
      return prevId
    end
  end
end
redis.call('SET', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
return ARGV[2]
`;

const FOLD = luaScript('pwFoldEmptyRun', FOLD_EMPTY_RUN);
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
        row = await runScript<string | [string, string]>(this.redis, FOLD, keys, [JSON.stringify(run), run.id, String(score), prevId, String(FOLDED_TTL_MS)]);
        if (!Array.isArray(row)) break;
        prevId = row[1];
      }
      if (Array.isArray(row)) throw new Error(`run ${run.id}: its schedule's newest row kept changing while it was saved`);
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
    await this.redis.multi().hsetnx(key, 'since', String(now)).hset(key, { kind, name, source }).sadd(this.sourceKeys.all, `${kind}:${name}`).exec();
  }

  async touchSource(kind: SourceStatus['kind'], name: string, at: { checkedAt: number; newAt?: number }): Promise<void> {
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
      const h = await this.redis.hgetall(this.sourceKey(id.slice(0, colon) as SourceStatus['kind'], id.slice(colon + 1)));
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
