import type { Redis } from 'ioredis';
import type { CatalogRecord, RecordError } from '../../schemas/record';

export type BatchState = 'queued' | 'running' | 'done';

export interface BatchLedger {
  id: string;
  feed: string;
  format: string;
  createdAt: string;
  finishedAt: string | null;
  state: BatchState;
  expected: number;
  ok: number;
  failed: number;
  warnings: string[];
  article: string | null;
  /** Set when records.ndjson or summary.json could not be written at the end (a full disk); the records are in Redis. */
  exportError: string | null;
}

export interface FailedItem {
  itemId: string;
  position: number;
  source: string;
  code: string;
  message: string;
  attempts: number;
  at: string;
}

/**
 * Mark one item's outcome and store its record in one step. Counters move only when the item's
 * state changes, so a retried or re-run item is never counted twice.
 */
const MARK_ITEM = `
local prev = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
if ARGV[2] == 'failed' then
  redis.call('HSET', KEYS[4], ARGV[1], ARGV[5])
else
  redis.call('HDEL', KEYS[4], ARGV[1])
end
if prev ~= ARGV[2] then
  if prev then redis.call('HINCRBY', KEYS[1], prev, -1) end
  redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
end
if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') end
return prev or ''
`;

type RedisWithScripts = Redis & {
  pwMarkItem(k1: string, k2: string, k3: string, k4: string, ...args: string[]): Promise<string>;
};

/** Batches, their ledgers and their records, in Redis under the configured prefix. */
export class CatalogStore {
  private readonly redis: RedisWithScripts;
  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    if (!('pwMarkItem' in redis)) redis.defineCommand('pwMarkItem', { numberOfKeys: 4, lua: MARK_ITEM });
    this.redis = redis as RedisWithScripts;
  }

  private k(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }
  private batchKeys(batchId: string) {
    const b = this.k('batch', batchId);
    return { ledger: b, items: `${b}:items`, records: `${b}:records`, errors: `${b}:errors` };
  }

  /** Create the ledger once; returns false when the batch already exists (a re-dropped feed). */
  async createBatch(l: { id: string; feed: string; format: string; expected: number; warnings: string[]; article: string | null }): Promise<boolean> {
    const keys = this.batchKeys(l.id);
    const created = await this.redis.hsetnx(keys.ledger, 'id', l.id);
    if (!created) return false;
    const now = new Date();
    await this.redis
      .multi()
      .hset(keys.ledger, {
        feed: l.feed,
        format: l.format,
        createdAt: now.toISOString(),
        state: 'queued',
        expected: String(l.expected),
        ok: '0',
        failed: '0',
        warnings: JSON.stringify(l.warnings),
        article: l.article ?? '',
      })
      .zadd(this.k('batches'), now.getTime(), l.id)
      .exec();
    return true;
  }

  async getBatch(batchId: string): Promise<BatchLedger | null> {
    const h = await this.redis.hgetall(this.batchKeys(batchId).ledger);
    if (!h.id) return null;
    return {
      id: h.id,
      feed: h.feed,
      format: h.format,
      createdAt: h.createdAt,
      finishedAt: h.finishedAt || null,
      state: (h.state as BatchState) ?? 'queued',
      expected: Number(h.expected ?? 0),
      ok: Number(h.ok ?? 0),
      failed: Number(h.failed ?? 0),
      warnings: h.warnings ? (JSON.parse(h.warnings) as string[]) : [],
      article: h.article || null,
      exportError: h.exportError || null,
    };
  }

  async listBatches(limit = 50): Promise<string[]> {
    return this.redis.zrevrange(this.k('batches'), 0, limit - 1);
  }

  async markItem(record: CatalogRecord, failure: { error: RecordError; attempts: number } | null): Promise<void> {
    const keys = this.batchKeys(record.batchId);
    const failed: FailedItem | null = failure
      ? {
          itemId: record.id,
          position: record.source.position,
          source: record.source.line ? `${record.source.file}:${record.source.line}` : record.source.file,
          code: failure.error.code,
          message: failure.error.message,
          attempts: failure.attempts,
          at: record.processedAt,
        }
      : null;
    await this.redis.pwMarkItem(
      keys.ledger,
      keys.items,
      keys.records,
      keys.errors,
      record.id,
      failure ? 'failed' : 'ok',
      String(record.source.position),
      JSON.stringify(record),
      failed ? JSON.stringify(failed) : '',
    );
  }

  /**
   * Close the ledger. `exportError` says records.ndjson or summary.json could not be written
   * (null clears an earlier one, undefined leaves it as it is): the batch is over either way, so
   * nobody waits forever on a full disk.
   */
  async finishBatch(batchId: string, exportError?: string | null): Promise<void> {
    const key = this.batchKeys(batchId).ledger;
    const tx = this.redis.multi().hset(key, { state: 'done', finishedAt: new Date().toISOString() });
    if (exportError) tx.hset(key, 'exportError', exportError);
    else if (exportError === null) tx.hdel(key, 'exportError');
    await tx.exec();
  }

  /** Failed items went back in the queue: the batch runs again until its retry's finalize job closes it. */
  async reopenBatch(batchId: string): Promise<void> {
    const key = this.batchKeys(batchId).ledger;
    await this.redis.multi().hset(key, 'state', 'running').hdel(key, 'finishedAt').exec();
  }

  /**
   * Records in feed order, a chunk at a time: a 100,000-item batch is never held in memory whole
   * (finalize and summaries run on workers next to photos being rendered).
   */
  async *iterateRecords(batchId: string, expected: number, chunk = 500): AsyncGenerator<CatalogRecord> {
    const key = this.batchKeys(batchId).records;
    for (let from = 0; from < expected; from += chunk) {
      const fields = Array.from({ length: Math.min(chunk, expected - from) }, (_, i) => String(from + i));
      for (const v of await this.redis.hmget(key, ...fields)) if (v !== null) yield JSON.parse(v) as CatalogRecord;
    }
  }

  /** Positions that have a record (ok or failed). */
  async recordPositions(batchId: string): Promise<Set<number>> {
    return new Set((await this.redis.hkeys(this.batchKeys(batchId).records)).map(Number));
  }

  /** Records in feed order. */
  async getRecords(batchId: string): Promise<CatalogRecord[]> {
    const h = await this.redis.hgetall(this.batchKeys(batchId).records);
    return Object.entries(h)
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map(([, v]) => JSON.parse(v) as CatalogRecord);
  }

  async getFailed(batchId: string): Promise<FailedItem[]> {
    const h = await this.redis.hgetall(this.batchKeys(batchId).errors);
    return Object.values(h)
      .map((v) => JSON.parse(v) as FailedItem)
      .sort((a, b) => a.position - b.position);
  }
}
