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
  /** Items of the feed that are not pictures (NewsML-G2/NITF text, video, audio, packages), by kind: `{ text: 1, video: 1 }`. */
  skipped: Record<string, number>;
  article: string | null;
  /**
   * Processing time: the first round's (created -> first finished) plus each retry round's
   * (reopened -> finished again). Null for a ledger never finished, or closed by a version before
   * it existed (then `finishedAt - createdAt`, the elapsed time, is all there is).
   */
  processingMs: number | null;
  /** Set when records.ndjson or summary.json could not be written at the end (a full disk); the records are in Redis. */
  exportError: string | null;
}

export interface FailedItem {
  itemId: string;
  /** The item's place in the feed (`source.position`), as printed (`#3`). */
  position: number;
  /** The item's index in its batch (0..expected-1); absent in failures recorded before it existed. */
  index?: number;
  source: string;
  code: string;
  message: string;
  /** Attempts of every round: a failure retried and failed again adds the new round's attempts. */
  attempts: number;
  /** How many `photowire retry` rounds failed again (0 or absent: never retried). */
  retries?: number;
  /** Attempts of the rounds before the last one (kept so a last round recorded twice is not added twice). */
  priorAttempts?: number;
  /** Set by `retry` when it puts the item back in the queue: the next failure is a new round. */
  retryQueued?: boolean;
  at: string;
}

/**
 * Append a warning to a ledger's JSON list unless it is already there.
 * KEYS[1] ledger hash; ARGV[1] the warning. Returns 1 when added, 0 otherwise (no ledger, or a duplicate).
 */
const ADD_WARNING = `
local raw = redis.call('HGET', KEYS[1], 'warnings')
if not raw then return 0 end
local list = cjson.decode(raw)
for _, w in ipairs(list) do if w == ARGV[1] then return 0 end end
list[#list + 1] = ARGV[1]
redis.call('HSET', KEYS[1], 'warnings', cjson.encode(list))
return 1
`;

/**
 * Mark one item's outcome and store its record in one step. Counters move only when the item's
 * state changes, so a retried or re-run item is never counted twice. A ledger that is not there
 * (Redis restarted without its data while the item was in flight) is not invented from counters:
 * the record and state are kept, and CREATE_BATCH counts them when the batch is created again.
 *
 * A failure of an item whose earlier failure was put back in the queue by `retry` (retryQueued)
 * is a new round: its attempts are added to the earlier rounds' (`attempts` counts every round,
 * `retries` the rounds after the first). The same round recorded again (a worker that died after
 * recording) replaces its own attempts, never adds them twice.
 *
 * KEYS[1] ledger hash, KEYS[2] item states (itemId -> ok|failed), KEYS[3] records (index -> JSON),
 * KEYS[4] failures (itemId -> JSON)
 * ARGV[1] itemId, ARGV[2] ok|failed, ARGV[3] the item's batch index, ARGV[4] record JSON,
 * ARGV[5] failure JSON ('' when ok; its `attempts` are this round's)
 * Returns the item's previous state ('' when none).
 */
const MARK_ITEM = `
local prev = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
if ARGV[2] == 'failed' then
  local entry = cjson.decode(ARGV[5])
  local before = redis.call('HGET', KEYS[4], ARGV[1])
  if before then
    local b = cjson.decode(before)
    local prior, retries = tonumber(b.priorAttempts) or 0, tonumber(b.retries) or 0
    if b.retryQueued then prior, retries = tonumber(b.attempts) or 0, retries + 1 end
    entry.priorAttempts = prior
    entry.retries = retries
    entry.attempts = prior + (tonumber(entry.attempts) or 0)
  end
  redis.call('HSET', KEYS[4], ARGV[1], cjson.encode(entry))
else
  redis.call('HDEL', KEYS[4], ARGV[1])
end
if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return prev or '' end
if prev ~= ARGV[2] then
  if prev then redis.call('HINCRBY', KEYS[1], prev, -1) end
  redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
end
if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') end
return prev or ''
`;

/**
 * Create a batch's ledger whole, in one step, or repair a partial one. A ledger missing any of
 * its fields (a crash between two writes of an older version left one holding only its id; Redis
 * lost its data and an in-flight item wrote into the empty database) gets the missing fields
 * from the feed, keeps the ones it has, and its ok/failed counts recounted from the item states
 * it holds, so re-ingesting never ends `done` with items missing from the counts.
 *
 * `openedMs` is when the current round of processing began (CREATE_BATCH, then each reopen);
 * FINISH_BATCH adds the round's time to `processingMs`. `skipped` (not pictures, by kind) is part
 * of the feed, stored with it.
 *
 * KEYS[1] ledger hash, KEYS[2] batch index (sorted set), KEYS[3] item states (itemId -> ok|failed)
 * ARGV[1] batch id, ARGV[2] feed, ARGV[3] format, ARGV[4] createdAt (ISO), ARGV[5] createdAt (ms),
 * ARGV[6] expected, ARGV[7] warnings JSON, ARGV[8] article ('' for none), ARGV[9] skipped JSON
 * Returns 'created', 'repaired' or 'exists'.
 */
const CREATE_BATCH = `
local fields = { 'id', 'feed', 'format', 'createdAt', 'state', 'expected', 'ok', 'failed', 'warnings', 'article' }
local missing = false
for _, f in ipairs(fields) do
  if redis.call('HEXISTS', KEYS[1], f) == 0 then missing = true end
end
if not missing then
  redis.call('ZADD', KEYS[2], 'NX', ARGV[5], ARGV[1])
  return 'exists'
end
local had = redis.call('EXISTS', KEYS[1]) == 1
local ok, failed = 0, 0
local states = redis.call('HVALS', KEYS[3])
for _, v in ipairs(states) do
  if v == 'ok' then ok = ok + 1 elseif v == 'failed' then failed = failed + 1 end
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'ok', ok, 'failed', failed)
redis.call('HSETNX', KEYS[1], 'feed', ARGV[2])
redis.call('HSETNX', KEYS[1], 'format', ARGV[3])
redis.call('HSETNX', KEYS[1], 'createdAt', ARGV[4])
redis.call('HSETNX', KEYS[1], 'expected', ARGV[6])
redis.call('HSETNX', KEYS[1], 'warnings', ARGV[7])
redis.call('HSETNX', KEYS[1], 'article', ARGV[8])
redis.call('HSETNX', KEYS[1], 'skipped', ARGV[9])
local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'done' then
  -- A batch without its counts cannot have been closed truthfully: it runs again.
  redis.call('HSET', KEYS[1], 'state', (ok + failed > 0) and 'running' or 'queued')
  redis.call('HDEL', KEYS[1], 'finishedAt')
  if state == 'done' then redis.call('HSET', KEYS[1], 'openedMs', ARGV[5]) end
end
redis.call('HSETNX', KEYS[1], 'openedMs', ARGV[5])
redis.call('ZADD', KEYS[2], 'NX', ARGV[5], ARGV[1])
return had and 'repaired' or 'created'
`;

/**
 * Close a ledger, only when every item is counted: ok + failed = expected. A ledger that is gone
 * (Redis lost its data) is not re-created as a hash holding only `state: done`.
 *
 * Closing a ledger that was open adds this round's time (now - openedMs) to processingMs; closing
 * one already done (a finalize job run again, the export error recorded after the summary) adds
 * nothing. A ledger of an older version (no openedMs) counts its round from createdAt.
 *
 * KEYS[1] ledger hash
 * ARGV[1] finishedAt (ISO), ARGV[2] export error ('' leaves it, '-' clears it, else sets it),
 * ARGV[3] finishedAt (ms), ARGV[4] createdAt (ms) when the ledger has no openedMs ('' unknown)
 * Returns 'done', 'gone', or 'short:<ok>:<failed>:<expected>' (the ledger is left open).
 */
const FINISH_BATCH = `
if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return 'gone' end
if ARGV[2] == '-' then redis.call('HDEL', KEYS[1], 'exportError')
elseif ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'exportError', ARGV[2]) end
local ok = tonumber(redis.call('HGET', KEYS[1], 'ok') or '0')
local failed = tonumber(redis.call('HGET', KEYS[1], 'failed') or '0')
local expected = tonumber(redis.call('HGET', KEYS[1], 'expected') or '0')
if ok + failed < expected then return 'short:' .. ok .. ':' .. failed .. ':' .. expected end
if redis.call('HGET', KEYS[1], 'state') ~= 'done' then
  local opened = tonumber(redis.call('HGET', KEYS[1], 'openedMs') or ARGV[4])
  if opened then
    local round = tonumber(ARGV[3]) - opened
    if round < 0 then round = 0 end
    redis.call('HINCRBY', KEYS[1], 'processingMs', round)
  end
end
redis.call('HSET', KEYS[1], 'state', 'done', 'finishedAt', ARGV[1])
return 'done'
`;

/**
 * Failed items went back in the queue: the batch runs again, and a new round of processing time
 * begins now, unless a round is already running (a retry while the batch is still open).
 *
 * KEYS[1] ledger hash
 * ARGV[1] now (ms), ARGV[2] the elapsed time to take as the processing time of a ledger closed by
 * a version before processingMs existed ('' when not done)
 * Returns 1, or 0 when there is no ledger.
 */
const REOPEN_BATCH = `
if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'state') == 'done' then
  if ARGV[2] ~= '' then redis.call('HSETNX', KEYS[1], 'processingMs', ARGV[2]) end
  redis.call('HSET', KEYS[1], 'openedMs', ARGV[1])
end
redis.call('HSET', KEYS[1], 'state', 'running')
redis.call('HDEL', KEYS[1], 'finishedAt')
return 1
`;

/**
 * Mark a failure as put back in the queue (retryQueued), so that the item failing again is a new
 * round whose attempts add to these. Only the failure that was retried (same time) is marked.
 *
 * KEYS[1] failures (itemId -> JSON)
 * ARGV[1] itemId, ARGV[2] the failure's time (its \`at\`)
 * Returns 1 when marked, 0 otherwise.
 */
const MARK_RETRY_QUEUED = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
if entry.at ~= ARGV[2] then return 0 end
entry.retryQueued = true
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
return 1
`;

type RedisWithScripts = Redis & {
  pwMarkItem(k1: string, k2: string, k3: string, k4: string, ...args: string[]): Promise<string>;
  pwCreateBatch(k1: string, k2: string, k3: string, ...args: string[]): Promise<string>;
  pwFinishBatch(k1: string, ...args: string[]): Promise<string>;
  pwReopenBatch(k1: string, ...args: string[]): Promise<number>;
  pwMarkRetryQueued(k1: string, ...args: string[]): Promise<number>;
};

/**
 * Replace records whose stored text is unchanged, all or none.
 * KEYS[1] records hash (index -> JSON); ARGV triples: index, JSON expected now, new JSON.
 * Returns 1 when replaced, 0 when one of them had changed (nothing written).
 */
const REPLACE_RECORDS = `
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then return 0 end
end
for i = 1, #ARGV, 3 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
return 1
`;

export type CreateOutcome = 'created' | 'repaired' | 'exists';
export type FinishOutcome = { state: 'done' } | { state: 'gone' } | { state: 'short'; ok: number; failed: number; expected: number };

const ITEM_SUFFIX = /-(\d{4,})$/;

/**
 * The batch index of an item: the record's own `index`, else read back from its id, which
 * `itemIdFor(batchId, index)` builds from it (records of versions before `index` existed).
 */
export function batchIndexOf(record: Pick<CatalogRecord, 'id' | 'batchId' | 'index'>): number {
  if (record.index !== undefined) return record.index;
  const m = record.id.startsWith(`${record.batchId}-`) ? ITEM_SUFFIX.exec(record.id) : null;
  if (!m) throw new Error(`record ${record.id} of batch ${record.batchId} has no index and its id does not name one`);
  return Number(m[1]) - 1;
}

/** Batches, their ledgers and their records, in Redis under the configured prefix. */
export class CatalogStore {
  private readonly redis: RedisWithScripts;
  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    if (!('pwMarkItem' in redis)) redis.defineCommand('pwMarkItem', { numberOfKeys: 4, lua: MARK_ITEM });
    if (!('pwCreateBatch' in redis)) redis.defineCommand('pwCreateBatch', { numberOfKeys: 3, lua: CREATE_BATCH });
    if (!('pwFinishBatch' in redis)) redis.defineCommand('pwFinishBatch', { numberOfKeys: 1, lua: FINISH_BATCH });
    if (!('pwReopenBatch' in redis)) redis.defineCommand('pwReopenBatch', { numberOfKeys: 1, lua: REOPEN_BATCH });
    if (!('pwMarkRetryQueued' in redis)) redis.defineCommand('pwMarkRetryQueued', { numberOfKeys: 1, lua: MARK_RETRY_QUEUED });
    this.redis = redis as RedisWithScripts;
  }

  private k(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }
  private batchKeys(batchId: string) {
    const b = this.k('batch', batchId);
    return { ledger: b, items: `${b}:items`, records: `${b}:records`, errors: `${b}:errors` };
  }

  /**
   * Create the ledger in one atomic step (CREATE_BATCH), or repair a partial one from the feed.
   * `created` is false when a whole ledger was already there (a re-dropped feed).
   */
  async createBatch(l: {
    id: string;
    feed: string;
    format: string;
    expected: number;
    warnings: string[];
    article: string | null;
    skipped?: Record<string, number>;
  }): Promise<{ created: boolean; outcome: CreateOutcome }> {
    const keys = this.batchKeys(l.id);
    const now = new Date();
    const outcome = (await this.redis.pwCreateBatch(
      keys.ledger,
      this.k('batches'),
      keys.items,
      l.id,
      l.feed,
      l.format,
      now.toISOString(),
      String(now.getTime()),
      String(l.expected),
      JSON.stringify(l.warnings),
      l.article ?? '',
      JSON.stringify(l.skipped ?? {}),
    )) as CreateOutcome;
    return { created: outcome !== 'exists', outcome };
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
      skipped: h.skipped ? (JSON.parse(h.skipped) as Record<string, number>) : {},
      article: h.article || null,
      processingMs: h.processingMs !== undefined && h.processingMs !== '' ? Number(h.processingMs) : null,
      exportError: h.exportError || null,
    };
  }

  async listBatches(limit = 50): Promise<string[]> {
    return this.redis.zrevrange(this.k('batches'), 0, limit - 1);
  }

  async markItem(record: CatalogRecord, failure: { error: RecordError; attempts: number } | null): Promise<void> {
    const keys = this.batchKeys(record.batchId);
    const index = batchIndexOf(record);
    const stored: CatalogRecord = { ...record, index };
    const failed: FailedItem | null = failure
      ? {
          itemId: record.id,
          position: record.source.position,
          index,
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
      String(index),
      JSON.stringify(stored),
      failed ? JSON.stringify(failed) : '',
    );
  }

  /**
   * Close the ledger, if every item is counted (FINISH_BATCH). `exportError` says records.ndjson
   * or summary.json could not be written, or were written short (null clears an earlier one,
   * undefined leaves it as it is): the batch is over either way, so nobody waits forever on a full
   * disk. A ledger short of items stays open and the caller is told.
   */
  async finishBatch(batchId: string, exportError?: string | null): Promise<FinishOutcome> {
    const key = this.batchKeys(batchId).ledger;
    const [openedMs, createdAt] = await this.redis.hmget(key, 'openedMs', 'createdAt');
    const fallback = openedMs === null && createdAt ? Date.parse(createdAt) : NaN;
    const now = new Date();
    const out = await this.redis.pwFinishBatch(
      key,
      now.toISOString(),
      exportError ? exportError : exportError === null ? '-' : '',
      String(now.getTime()),
      Number.isFinite(fallback) ? String(fallback) : '',
    );
    if (out === 'done' || out === 'gone') return { state: out };
    const [, ok, failed, expected] = out.split(':').map(Number);
    return { state: 'short', ok, failed, expected };
  }

  /**
   * A warning added to the ledger once (the finalizer's findings, the metadata reader's per file);
   * no-op on a ledger that is gone. One atomic step: items of a batch add theirs concurrently.
   */
  async addWarning(batchId: string, warning: string): Promise<void> {
    await this.redis.eval(ADD_WARNING, 1, this.batchKeys(batchId).ledger, warning);
  }

  /**
   * Failed items went back in the queue: the batch runs again until its retry's finalize job
   * closes it, and that round's time is added to its processing time (REOPEN_BATCH).
   */
  async reopenBatch(batchId: string): Promise<void> {
    const key = this.batchKeys(batchId).ledger;
    const [createdAt, finishedAt] = await this.redis.hmget(key, 'createdAt', 'finishedAt');
    const elapsed = createdAt && finishedAt ? Date.parse(finishedAt) - Date.parse(createdAt) : NaN;
    await this.redis.pwReopenBatch(key, String(Date.now()), Number.isFinite(elapsed) ? String(Math.max(0, elapsed)) : '');
  }

  /** `retry` put this failure back in the queue: its next failure is a new round (MARK_RETRY_QUEUED). */
  async markRetryQueued(batchId: string, itemId: string, at: string): Promise<boolean> {
    return (await this.redis.pwMarkRetryQueued(this.batchKeys(batchId).errors, itemId, at)) === 1;
  }

  /**
   * Records in feed order, a chunk at a time: a 100,000-item batch is never held in memory whole
   * (finalize and summaries run on workers next to photos being rendered).
   */
  async *iterateRecords(batchId: string, expected: number, opts: { chunk?: number; onMissing?: (index: number) => void } = {}): AsyncGenerator<CatalogRecord> {
    const key = this.batchKeys(batchId).records;
    const chunk = opts.chunk ?? 500;
    for (let from = 0; from < expected; from += chunk) {
      const fields = Array.from({ length: Math.min(chunk, expected - from) }, (_, i) => String(from + i));
      const values = await this.redis.hmget(key, ...fields);
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (v !== null) yield JSON.parse(v) as CatalogRecord;
        else opts.onMissing?.(from + i);
      }
    }
  }

  /** Records at these batch indexes as stored (JSON text, null when absent), for replaceRecords. */
  async rawRecords(batchId: string, indexes: number[]): Promise<Array<string | null>> {
    if (indexes.length === 0) return [];
    return this.redis.hmget(this.batchKeys(batchId).records, ...indexes.map(String));
  }

  /**
   * Replace records in one atomic step, only if each is still stored as `before` (a record
   * rewritten in between, by a re-run item, is not overwritten). All or none: returns false when
   * one had changed, so the caller reads them again. Used by the finalize's clustering step.
   */
  async replaceRecords(batchId: string, changes: Array<{ index: number; before: string; after: string }>): Promise<boolean> {
    if (changes.length === 0) return true;
    const args = changes.flatMap((c) => [String(c.index), c.before, c.after]);
    return (await this.redis.eval(REPLACE_RECORDS, 1, this.batchKeys(batchId).records, ...args)) === 1;
  }

  /** Batch indexes (0..expected-1) that have a record (ok or failed). */
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
      .map((v) => {
        // Bookkeeping of MARK_ITEM's rounds, not part of what a failure says.
        const { retryQueued: _queued, priorAttempts: _prior, ...f } = JSON.parse(v) as FailedItem;
        return f;
      })
      .sort((a, b) => (a.index ?? a.position) - (b.index ?? b.position));
  }
}
