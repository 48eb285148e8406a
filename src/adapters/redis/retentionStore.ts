import { Cluster, type Redis } from 'ioredis';
import type { ArchivedEntry, BatchFacts, RemovalStep, RetentionCursor } from '../../core/retention/plan';
import { keysStartingWith, redisKeys, type RedisKeys } from './keys';

/**
 * The Redis side of retention (src/app/retention/retentionPass.ts: its catalog and runs ports): a batch's keys are all in its
 * slot (`{<p>:batch:<id>}`, keys.ts), so removing it is one SCAN of its tag, page by page, with
 * UNLINK (Redis frees the values in the background). The archived index and the cursor are in the
 * catalog's slot; run rows in the runs slot.
 */
export class RetentionStore {
  private readonly keys: RedisKeys;
  constructor(
    private readonly redis: Redis | Cluster,
    prefix: string,
    private readonly scanCount = 1000,
  ) {
    this.keys = redisKeys(prefix);
  }

  async candidates(beforeMs: number, offset: number, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.batches, '-inf', `(${beforeMs}`, 'LIMIT', offset, limit);
  }

  async facts(batchId: string): Promise<BatchFacts & { entry: Omit<ArchivedEntry, 'archivedAt'> | null }> {
    const [h, archived] = await Promise.all([
      this.redis.hgetall(this.keys.batch(batchId).ledger),
      this.redis.zscore(this.keys.archived, batchId),
    ]);
    if (!h.id) return { id: batchId, state: null, finishedAt: null, archived: archived !== null, entry: null };
    const state = (h.state as BatchFacts['state']) ?? 'queued';
    return {
      id: batchId,
      state,
      finishedAt: h.finishedAt || null,
      archived: archived !== null,
      entry: {
        id: batchId,
        feed: h.feed ?? '',
        format: h.format ?? '',
        createdAt: h.createdAt ?? '',
        finishedAt: h.finishedAt || null,
        expected: Number(h.expected ?? 0),
        ok: Number(h.ok ?? 0),
        failed: Number(h.failed ?? 0),
      },
    };
  }

  async archive(entry: ArchivedEntry): Promise<void> {
    const score = Date.parse(entry.createdAt);
    await this.redis
      .multi()
      .hset(this.keys.archivedSummaries, entry.id, JSON.stringify(entry))
      .zadd(this.keys.archived, String(Number.isNaN(score) ? 0 : score), entry.id)
      .exec();
  }

  async unlinkLedger(batchId: string): Promise<number> {
    return this.redis.unlink(this.keys.batch(batchId).ledger);
  }

  async *itemIds(batchId: string): AsyncIterable<string[]> {
    const key = this.keys.batch(batchId).items;
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(key, cursor, 'COUNT', this.scanCount);
      cursor = next;
      const ids: string[] = [];
      for (let i = 0; i < flat.length; i += 2) ids.push(flat[i]);
      if (ids.length > 0) yield ids;
    } while (cursor !== '0');
  }

  async unlinkBatchKeys(batchId: string): Promise<number> {
    const pattern = keysStartingWith(this.keys.batch(batchId).tag);
    const nodes: Redis[] = this.redis instanceof Cluster ? this.redis.nodes('master') : [this.redis];
    let n = 0;
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', this.scanCount);
        cursor = next;
        // One slot: a single UNLINK of the page is fine on a Cluster too.
        if (keys.length > 0) n += await node.unlink(...keys);
      } while (cursor !== '0');
    }
    return n;
  }

  async unlist(batchId: string): Promise<void> {
    await this.redis.zrem(this.keys.batches, batchId);
  }

  async getCursor(): Promise<RetentionCursor | null> {
    const h = await this.redis.hgetall(this.keys.retentionCursor);
    if (!h.batchId) return null;
    return { batchId: h.batchId, step: (h.step || null) as RemovalStep | null };
  }

  async setCursor(c: RetentionCursor | null): Promise<void> {
    if (c === null) await this.redis.unlink(this.keys.retentionCursor);
    else await this.redis.hset(this.keys.retentionCursor, 'batchId', c.batchId, 'step', c.step ?? '');
  }

  async runsBefore(
    beforeMs: number,
    offset: number,
    limit: number,
  ): Promise<Array<{ id: string; schedule: string; state: string; startedAt: string }>> {
    const ids = await this.redis.zrangebyscore(this.keys.runs.all, '-inf', `(${beforeMs}`, 'LIMIT', offset, limit);
    if (ids.length === 0) return [];
    const raws = await this.redis.mget(...ids.map((id) => this.keys.runs.run(id)));
    return ids.map((id, i) => {
      const raw = raws[i];
      if (!raw) return { id, schedule: '', state: 'gone', startedAt: new Date(0).toISOString() };
      const r = JSON.parse(raw) as { schedule?: string; state?: string; startedAt?: string };
      return {
        id,
        schedule: r.schedule ?? '',
        state: r.state ?? 'done',
        startedAt: r.startedAt ?? new Date(0).toISOString(),
      };
    });
  }

  async removeRuns(runs: Array<{ id: string; schedule: string }>): Promise<number> {
    const m = this.redis.multi();
    for (const r of runs) {
      m.unlink(this.keys.runs.run(r.id));
      m.zrem(this.keys.runs.all, r.id);
      if (r.schedule) m.zrem(this.keys.runs.bySchedule(r.schedule), r.id);
    }
    await m.exec();
    return runs.length;
  }

  /** The archived batches, newest first: the small summaries of the archived index. */
  async listArchived(limit = 50): Promise<ArchivedEntry[]> {
    const ids = await this.redis.zrevrange(this.keys.archived, 0, limit - 1);
    if (ids.length === 0) return [];
    const raws = await this.redis.hmget(this.keys.archivedSummaries, ...ids);
    return raws.filter((r): r is string => !!r).map((r) => JSON.parse(r) as ArchivedEntry);
  }

  async archivedEntry(batchId: string): Promise<ArchivedEntry | null> {
    const raw = await this.redis.hget(this.keys.archivedSummaries, batchId);
    return raw ? (JSON.parse(raw) as ArchivedEntry) : null;
  }
}
