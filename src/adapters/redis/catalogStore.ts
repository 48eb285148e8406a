import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CatalogRecord, RecordError } from '../../schemas/record';
import { defaultCreditRules, type CreditRules } from '../../core/credits/rules';
import { redisKeys, type BatchKeys, type RedisKeys } from './keys';
import { luaScript, runScript } from './scripts';
import { RenditionOwners } from './renditionOwners';
import { COUNTERS, joinedFromCounter, recordFacets, type CounterName, type RecordFacets } from '../../core/records/recordFacets';

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
  /**
   * The processing round: 1 for the batch as ingested, one more for each `photowire retry` that
   * put items back in the queue. Only a finalize job of this round may close the ledger (a
   * finalize of an earlier round that runs late does nothing). Ledgers of a version before it
   * existed read as 1.
   */
  round: number;
}

/** How an item failed, as the item stage stores it with its record. */
export interface ItemFailure {
  error: RecordError;
  attempts: number;
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
 * Lua shared by the steps that store a record (MARK_ITEM, REPLACE_RECORDS): a record's facets
 * (src/core/records/recordFacets.ts: the counters and indexes it adds to) are kept beside it in
 * the facets hash, so a record replaced (a retry, a re-run, the finalize's clusters, a correction)
 * takes back exactly what it had added before adding its new ones: nothing is counted twice.
 *
 * Every index key a step touches is passed in KEYS, named in a JSON list in ARGV (the same
 * order). A record stored earlier may belong to an index the caller did not name (it cannot know
 * the stored facets): the step then writes nothing and replies {'need', name...}; the caller names
 * them too and calls again.
 */
const FACETS_LUA = `
local function indexMap(first, names)
  local m = {}
  for i, n in ipairs(names) do m[n] = KEYS[first + i - 1] end
  return m
end
local function missingIndexes(raw, ix, out)
  if not raw then return end
  for _, n in ipairs(cjson.decode(raw).i) do
    if not ix[n] then out[#out + 1] = n end
  end
end
local function moveFacets(f, sign, pos, ix, stats, clusters, captions)
  for _, c in ipairs(f.c) do redis.call('HINCRBY', stats, c, sign) end
  if type(f.k) == 'string' then
    if redis.call('HINCRBY', clusters, f.k, sign) <= 0 then redis.call('HDEL', clusters, f.k) end
  end
  if type(f.d) == 'string' then
    if redis.call('HINCRBY', captions, f.d, sign) <= 0 then redis.call('HDEL', captions, f.d) end
  end
  for _, n in ipairs(f.i) do
    if sign > 0 then redis.call('ZADD', ix[n], pos, pos) else redis.call('ZREM', ix[n], pos) end
  end
end
-- The items of list a that b lacks, as a multiset (a counter named twice counts twice).
local function without(a, b)
  local left = {}
  for _, x in ipairs(b) do left[x] = (left[x] or 0) + 1 end
  local out = {}
  for _, x in ipairs(a) do
    if (left[x] or 0) > 0 then left[x] = left[x] - 1 else out[#out + 1] = x end
  end
  return out
end
local function storeFacets(facetsKey, pos, raw, ix, stats, clusters, captions)
  local before = redis.call('HGET', facetsKey, pos)
  if before == raw then return end
  local new = cjson.decode(raw)
  if before then
    -- Only what differs moves (issue 14: a record patched with its cluster keeps its other
    -- facets): taking back and adding again what both have would leave the same counts.
    local old = cjson.decode(before)
    local sameK = type(old.k) == 'string' and old.k == new.k
    local sameD = type(old.d) == 'string' and old.d == new.d
    moveFacets({ c = without(old.c, new.c), i = without(old.i, new.i), k = (not sameK) and old.k or nil, d = (not sameD) and old.d or nil }, -1, pos, ix, stats, clusters, captions)
    moveFacets({ c = without(new.c, old.c), i = without(new.i, old.i), k = (not sameK) and new.k or nil, d = (not sameD) and new.d or nil }, 1, pos, ix, stats, clusters, captions)
  else
    moveFacets(new, 1, pos, ix, stats, clusters, captions)
  end
  redis.call('HSET', facetsKey, pos, raw)
end
`;

/**
 * Mark one item's outcome and store its record in one step. Counters move only when the item's
 * state changes, so a retried or re-run item is never counted twice. A ledger that is not there
 * (Redis restarted without its data while the item was in flight) is not invented from counters:
 * the record and state are kept, and CREATE_BATCH counts them when the batch is created again.
 * The record's counters and indexes move in the same step (FACETS_LUA).
 *
 * A failure of an item whose earlier failure was put back in the queue by `retry` (retryQueued)
 * is a new round: its attempts are added to the earlier rounds' (`attempts` counts every round,
 * `retries` the rounds after the first). The same round recorded again (a worker that died after
 * recording) replaces its own attempts, never adds them twice.
 *
 * KEYS[1] ledger hash, KEYS[2] item states (itemId -> ok|failed), KEYS[3] records (index -> JSON),
 * KEYS[4] failures (itemId -> JSON), KEYS[5] facets (index -> JSON), KEYS[6] stats hash,
 * KEYS[7] members per cluster, KEYS[8] records per caption digest, KEYS[9..] the index sorted sets
 * named by ARGV[7]
 * ARGV[1] itemId, ARGV[2] ok|failed, ARGV[3] the item's batch index, ARGV[4] record JSON,
 * ARGV[5] failure JSON ('' when ok; its `attempts` are this round's), ARGV[6] the record's facets
 * JSON, ARGV[7] JSON list of the index names of KEYS[9..]
 * Returns the item's previous state ('' when none), or {'need', name...} (nothing written).
 */
/**
 * One item's outcome (MARK_ITEM's body, shared with MARK_ITEMS): the record, its facets, its state
 * and failure entry; the ledger's counts move only when the item's state changes.
 * `ledger` is whether the ledger exists (checked once per call). Returns the previous state ('' for none).
 */
const MARK_ONE_LUA = FACETS_LUA + `
local function markOne(ix, ledger, itemId, state, pos, record, failure, facets)
  storeFacets(KEYS[5], pos, facets, ix, KEYS[6], KEYS[7], KEYS[8])
  local prev = redis.call('HGET', KEYS[2], itemId)
  redis.call('HSET', KEYS[2], itemId, state)
  redis.call('HSET', KEYS[3], pos, record)
  if state == 'failed' then
    local entry = cjson.decode(failure)
    local before = redis.call('HGET', KEYS[4], itemId)
    if before then
      local b = cjson.decode(before)
      local prior, retries = tonumber(b.priorAttempts) or 0, tonumber(b.retries) or 0
      if b.retryQueued then prior, retries = tonumber(b.attempts) or 0, retries + 1 end
      entry.priorAttempts = prior
      entry.retries = retries
      entry.attempts = prior + (tonumber(entry.attempts) or 0)
    end
    redis.call('HSET', KEYS[4], itemId, cjson.encode(entry))
  else
    redis.call('HDEL', KEYS[4], itemId)
  end
  if ledger and prev ~= state then
    if prev then redis.call('HINCRBY', KEYS[1], prev, -1) end
    redis.call('HINCRBY', KEYS[1], state, 1)
  end
  return prev or ''
end
local function ledgerRunning()
  if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return false end
  if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') end
  return true
end
`;

const MARK_ITEM = MARK_ONE_LUA + `
local ix = indexMap(9, cjson.decode(ARGV[7]))
local need = {}
missingIndexes(redis.call('HGET', KEYS[5], ARGV[3]), ix, need)
if #need > 0 then return { 'need', unpack(need) } end
return markOne(ix, ledgerRunning(), ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
`;

/**
 * MARK_ITEM for the records of a chunk of caption-only items (issue 14), all or none: the same
 * keys, and one sextuple of MARK_ITEM's ARGV per record. Every index a record of the chunk (or
 * one stored before at its place) is in is named, or nothing is written ({'need', name...}).
 * A chunk run again (a retry, a worker killed after this step) rewrites its records in place:
 * counted once, as MARK_ITEM does for one item.
 *
 * KEYS as MARK_ITEM's: KEYS[1..8], then the index sorted sets named by ARGV[1]
 * ARGV[1] JSON list of the index names of KEYS[9..]; then per record: itemId, ok|failed, batch
 * index, record JSON, failure JSON ('' when ok), facets JSON
 * Returns how many records were new (had no state before), or {'need', name...}.
 */
const MARK_ITEMS = luaScript(
  'pwMarkItems',
  MARK_ONE_LUA +
    `
local ix = indexMap(9, cjson.decode(ARGV[1]))
local need = {}
for i = 2, #ARGV, 6 do missingIndexes(redis.call('HGET', KEYS[5], ARGV[i + 2]), ix, need) end
if #need > 0 then return { 'need', unpack(need) } end
local ledger = ledgerRunning()
local fresh = 0
for i = 2, #ARGV, 6 do
  if markOne(ix, ledger, ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]) == '' then fresh = fresh + 1 end
end
return fresh
`,
);

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
 * KEYS[1] ledger hash, KEYS[2] item states (itemId -> ok|failed). The batch list (another slot)
 * is added to by createBatch after this step.
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
if not missing then return 'exists' end
local had = redis.call('EXISTS', KEYS[1]) == 1
local ok, failed = 0, 0
local states = redis.call('HVALS', KEYS[2])
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
 * A finalize of an earlier round than the ledger's (`round`, absent = 1: a retry reopened the batch
 * since the job was queued) changes nothing: the retried items are still to come, and the
 * current round's finalize closes the batch once they have ended.
 *
 * KEYS[1] ledger hash
 * ARGV[1] finishedAt (ISO), ARGV[2] export error ('' leaves it, '-' clears it, else sets it),
 * ARGV[3] finishedAt (ms), ARGV[4] createdAt (ms) when the ledger has no openedMs ('' unknown),
 * ARGV[5] the caller's round ('' for any)
 * Returns 'done', 'gone', 'stale:<round>' (nothing changed), or 'short:<ok>:<failed>:<expected>'
 * (the ledger is left open).
 */
const FINISH_BATCH = `
if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return 'gone' end
local current = tonumber(redis.call('HGET', KEYS[1], 'round') or '1') or 1
if ARGV[5] ~= '' and tonumber(ARGV[5]) < current then return 'stale:' .. current end
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
 * Every reopen begins a new round (`round`, absent = 1): the finalize jobs queued before it are
 * of an earlier round and can no longer close the batch (FINISH_BATCH).
 *
 * KEYS[1] ledger hash
 * ARGV[1] now (ms), ARGV[2] the elapsed time to take as the processing time of a ledger closed by
 * a version before processingMs existed ('' when not done)
 * Returns the new round, or 0 when there is no ledger.
 */
const REOPEN_BATCH = `
if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'state') == 'done' then
  if ARGV[2] ~= '' then redis.call('HSETNX', KEYS[1], 'processingMs', ARGV[2]) end
  redis.call('HSET', KEYS[1], 'openedMs', ARGV[1])
end
local round = (tonumber(redis.call('HGET', KEYS[1], 'round') or '1') or 1) + 1
redis.call('HSET', KEYS[1], 'state', 'running', 'round', round)
redis.call('HDEL', KEYS[1], 'finishedAt')
return round
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
  /** numkeys first (the index keys vary) */
  pwMarkItemIx(numKeys: number, ...keysAndArgs: string[]): Promise<string | string[]>;
  pwReplaceRecords(numKeys: number, ...keysAndArgs: string[]): Promise<number | string[]>;
  pwIndexPage(numKeys: number, ...keysAndArgs: string[]): Promise<Array<string | number>>;
  pwCreateBatch2(k1: string, k2: string, ...args: string[]): Promise<string>;
  pwFinishBatch(k1: string, ...args: string[]): Promise<string>;
  pwReopenBatch(k1: string, ...args: string[]): Promise<number>;
  pwMarkRetryQueued(k1: string, ...args: string[]): Promise<number>;
};

/**
 * Replace records whose stored text is unchanged, all or none, moving their counters and indexes
 * (FACETS_LUA). A record replaced by itself (same text) only gets its facets: how a batch stored
 * before the facets existed is indexed (CatalogStore.ensureIndexed).
 *
 * KEYS[1] records hash (index -> JSON), KEYS[2] facets, KEYS[3] stats, KEYS[4] members per
 * cluster, KEYS[5] records per caption digest, KEYS[6..] index sorted sets named by ARGV[1]
 * ARGV[1] JSON list of the index names of KEYS[6..]; then quadruples: index, JSON expected now,
 * new JSON, new facets JSON.
 * Returns 1 when replaced, 0 when one of them had changed, {'need', name...} when a stored
 * record's facets name an index not passed (nothing written either way).
 */
/** Records per REPLACE_RECORDS call: bounded work per script, so other clients wait milliseconds, not a chunk. */
const REPLACE_STEP = 100;

const REPLACE_RECORDS = FACETS_LUA + `
local ix = indexMap(6, cjson.decode(ARGV[1]))
local need = {}
for i = 2, #ARGV, 4 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then return 0 end
  missingIndexes(redis.call('HGET', KEYS[2], ARGV[i]), ix, need)
end
if #need > 0 then return { 'need', unpack(need) } end
for i = 2, #ARGV, 4 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
  storeFacets(KEYS[2], ARGV[i], ARGV[i + 3], ix, KEYS[3], KEYS[4], KEYS[5])
end
return 1
`;

/**
 * The page of an index (or of the intersection of several, kept a short while for the next
 * pages): how many records it holds and the batch indexes of ranks ARGV[1]..ARGV[2].
 * KEYS[1] the intersection's key (unused for one index), KEYS[2..] index sorted sets
 * ARGV[1] first rank, ARGV[2] last rank, ARGV[3] seconds to keep an intersection
 * Returns {count, index...}.
 */
const INDEX_PAGE = `
local key = KEYS[2]
if #KEYS > 2 then
  key = KEYS[1]
  if redis.call('EXISTS', key) == 0 then
    local src = {}
    for i = 2, #KEYS do src[#src + 1] = KEYS[i] end
    redis.call('ZINTERSTORE', key, #src, unpack(src))
  end
  redis.call('EXPIRE', key, ARGV[3])
end
local out = { redis.call('ZCARD', key) }
for _, m in ipairs(redis.call('ZRANGE', key, ARGV[1], ARGV[2])) do out[#out + 1] = m end
return out
`;

export type CreateOutcome = 'created' | 'repaired' | 'exists';
export type FinishOutcome =
  | { state: 'done' }
  | { state: 'gone' }
  /** The caller's round is over: a retry reopened the batch since (the ledger's round is `round`); nothing changed. */
  | { state: 'stale'; round: number }
  | { state: 'short'; ok: number; failed: number; expected: number };

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
  private readonly keys: RedisKeys;
  /** Which records show each rendition set: the renditions route asks it before answering. */
  readonly renditionOwners: RenditionOwners;
  constructor(
    redis: Redis,
    private readonly prefix: string,
    /** The rules a record's agency index is named by (`agency=getty` finds `GETTY` and `Getty Images`). */
    private readonly rules: CreditRules = defaultCreditRules(),
  ) {
    if (!('pwMarkItemIx' in redis)) redis.defineCommand('pwMarkItemIx', { lua: MARK_ITEM });
    if (!('pwReplaceRecords' in redis)) redis.defineCommand('pwReplaceRecords', { lua: REPLACE_RECORDS });
    if (!('pwIndexPage' in redis)) redis.defineCommand('pwIndexPage', { lua: INDEX_PAGE });
    if (!('pwCreateBatch2' in redis)) redis.defineCommand('pwCreateBatch2', { numberOfKeys: 2, lua: CREATE_BATCH });
    if (!('pwFinishBatch' in redis)) redis.defineCommand('pwFinishBatch', { numberOfKeys: 1, lua: FINISH_BATCH });
    if (!('pwReopenBatch' in redis)) redis.defineCommand('pwReopenBatch', { numberOfKeys: 1, lua: REOPEN_BATCH });
    if (!('pwMarkRetryQueued' in redis)) redis.defineCommand('pwMarkRetryQueued', { numberOfKeys: 1, lua: MARK_RETRY_QUEUED });
    this.redis = redis as RedisWithScripts;
    this.keys = redisKeys(prefix);
    this.renditionOwners = new RenditionOwners(redis, prefix);
  }

  /** A batch's keys, all in its slot (src/adapters/redis/keys.ts). */
  private batchKeys(batchId: string): BatchKeys {
    return this.keys.batch(batchId);
  }
  /** One index of a batch (a sorted set of batch indexes, scored by them). */
  private indexKey(batchId: string, name: string): string {
    return this.keys.batch(batchId).index(name);
  }

  /** A record's facets as this store computes them (src/core/records/recordFacets.ts). */
  facetsOf(record: CatalogRecord): RecordFacets {
    return recordFacets(record, this.rules);
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
    const outcome = (await this.redis.pwCreateBatch2(
      keys.ledger,
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
    // The batch list is another slot (keys.ts): listed after the ledger exists, every time (NX), so a
    // crash in between is mended by the next createBatch of the feed.
    await this.redis.zadd(this.keys.batches, 'NX', String(now.getTime()), l.id);
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
      round: Number(h.round ?? 1) || 1,
    };
  }

  async listBatches(limit = 50): Promise<string[]> {
    return this.redis.zrevrange(this.keys.batches, 0, limit - 1);
  }

  /** MARK_ITEM's and MARK_ITEMS's ARGV for one record, and the indexes it is in. */
  private markArgs(record: CatalogRecord, failure: ItemFailure | null): { args: string[]; indexes: string[] } {
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
    const facets = this.facetsOf(stored);
    return { args: [record.id, failure ? 'failed' : 'ok', String(index), JSON.stringify(stored), failed ? JSON.stringify(failed) : '', JSON.stringify(facets)], indexes: facets.i };
  }

  /**
   * Call a marking script with the batch's keys and every index `names` holds; a stored record in
   * an index not named is answered with {'need', ...}: named too, and called again.
   */
  private async withIndexes<T>(batchId: string, names: Set<string>, what: string, call: (keys: string[], list: string[]) => Promise<T | string[]>): Promise<T> {
    const keys = this.batchKeys(batchId);
    for (let attempt = 0; ; attempt++) {
      const list = [...names];
      const out = await call([keys.ledger, keys.items, keys.records, keys.errors, keys.facets, keys.stats, keys.clusters, keys.captions, ...list.map((n) => this.indexKey(batchId, n))], list);
      if (!Array.isArray(out)) return out;
      // The stored record belongs to indexes not named: name them too (a concurrent writer may add more).
      for (const n of out.slice(1)) names.add(n);
      if (attempt >= 5) throw new Error(`${what}: its stored indexes kept changing while it was written`);
    }
  }

  async markItem(record: CatalogRecord, failure: ItemFailure | null): Promise<void> {
    const { args, indexes } = this.markArgs(record, failure);
    await this.renditionOwners.remember([record]);
    await this.withIndexes(record.batchId, new Set(indexes), `record ${record.id}`, (keyList, list) =>
      this.redis.pwMarkItemIx(keyList.length, ...keyList, ...args, JSON.stringify(list)),
    );
  }

  /**
   * The records of a chunk of one batch's items, each with its failure or null, in one atomic step
   * (MARK_ITEMS): all stored and counted, or none. Returns how many had no state before.
   */
  async markItems(batchId: string, entries: ReadonlyArray<{ record: CatalogRecord; failure: ItemFailure | null }>): Promise<number> {
    if (entries.length === 0) return 0;
    const names = new Set<string>();
    const args: string[] = [];
    for (const { record, failure } of entries) {
      if (record.batchId !== batchId) throw new Error(`markItems: record ${record.id} is of batch ${record.batchId}, not ${batchId}`);
      const one = this.markArgs(record, failure);
      args.push(...one.args);
      for (const n of one.indexes) names.add(n);
    }
    await this.renditionOwners.remember(entries.map((e) => e.record));
    return this.withIndexes(batchId, names, `a chunk of batch ${batchId}`, (keyList, list) => runScript<number | string[]>(this.redis, MARK_ITEMS, keyList, [JSON.stringify(list), ...args]));
  }

  /** The state of each item (ok, failed, or null: no record yet), in the order given. */
  async itemStates(batchId: string, itemIds: string[]): Promise<Array<'ok' | 'failed' | null>> {
    if (itemIds.length === 0) return [];
    return (await this.redis.hmget(this.batchKeys(batchId).items, ...itemIds)) as Array<'ok' | 'failed' | null>;
  }

  /**
   * Close the ledger, if every item is counted (FINISH_BATCH). `exportError` says records.ndjson
   * or summary.json could not be written, or were written short (null clears an earlier one,
   * undefined leaves it as it is): the batch is over either way, so nobody waits forever on a full
   * disk. A ledger short of items stays open and the caller is told. With `round` (the finalize
   * job's), a ledger reopened since for a later round is left as it is ('stale').
   */
  async finishBatch(batchId: string, exportError?: string | null, round?: number): Promise<FinishOutcome> {
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
      round === undefined ? '' : String(round),
    );
    if (out === 'done' || out === 'gone') return { state: out };
    if (out.startsWith('stale:')) return { state: 'stale', round: Number(out.slice(6)) };
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
   * closes it, and that round's time is added to its processing time (REOPEN_BATCH). Returns the
   * new round (the retry's finalize job carries it), or 0 when the ledger is gone.
   */
  async reopenBatch(batchId: string): Promise<number> {
    const key = this.batchKeys(batchId).ledger;
    const [createdAt, finishedAt] = await this.redis.hmget(key, 'createdAt', 'finishedAt');
    const elapsed = createdAt && finishedAt ? Date.parse(finishedAt) - Date.parse(createdAt) : NaN;
    return Number(await this.redis.pwReopenBatch(key, String(Date.now()), Number.isFinite(elapsed) ? String(Math.max(0, elapsed)) : ''));
  }

  /**
   * Undo reopenBatch's new round when its finalize job could not be added (the retry failed): the
   * finalize jobs of the round before are the batch's again. Only if no other reopen came since.
   */
  async rewindRound(batchId: string, round: number): Promise<void> {
    await this.redis.eval(
      `if redis.call('HGET', KEYS[1], 'round') == ARGV[1] then redis.call('HSET', KEYS[1], 'round', tonumber(ARGV[1]) - 1) end return 1`,
      1,
      this.batchKeys(batchId).ledger,
      String(round),
    );
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
    for await (const text of this.iterateRawRecords(batchId, expected, opts)) yield JSON.parse(text) as CatalogRecord;
  }

  /**
   * The same, each record as its stored JSON text (one line of records.ndjson as it is: issue 14,
   * finalize no longer parses and re-serializes every record to write the file).
   */
  async *iterateRawRecords(batchId: string, expected: number, opts: { chunk?: number; onMissing?: (index: number) => void } = {}): AsyncGenerator<string> {
    const key = this.batchKeys(batchId).records;
    const chunk = opts.chunk ?? 500;
    for (let from = 0; from < expected; from += chunk) {
      const fields = Array.from({ length: Math.min(chunk, expected - from) }, (_, i) => String(from + i));
      const values = await this.redis.hmget(key, ...fields);
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (v !== null) yield v;
        else opts.onMissing?.(from + i);
      }
    }
  }

  /** Records in feed order, one page (an array) at a time: `export` streams a batch this way. */
  async *recordPages(batchId: string, expected: number, chunk = 500): AsyncGenerator<CatalogRecord[]> {
    for (let offset = 0; offset < expected; offset += chunk) {
      const { records } = await this.getRecordsPage(batchId, { offset, limit: Math.min(chunk, expected - offset) });
      if (records.length) yield records;
    }
  }

  /** Records at these batch indexes as stored (JSON text, null when absent), for replaceRecords. */
  async rawRecords(batchId: string, indexes: number[]): Promise<Array<string | null>> {
    if (indexes.length === 0) return [];
    return this.redis.hmget(this.batchKeys(batchId).records, ...indexes.map(String));
  }

  /**
   * Replace records, only if each is still stored as `before` (a record rewritten in between, by
   * a re-run item, is not overwritten), in atomic steps of at most REPLACE_STEP records (issue 14:
   * one Lua call for a chunk of 500 held Redis for 160-485 ms). Each step is all or none; returns
   * false at the first step where one had changed (the steps before it are written), so the caller
   * reads them again: its patch skips records already as wanted. Used by the finalize's clustering
   * step and `clusters rebuild`.
   */
  async replaceRecords(batchId: string, changes: Array<{ index: number; before: string; after: string }>): Promise<boolean> {
    for (let from = 0; from < changes.length; from += REPLACE_STEP) {
      if (!(await this.replaceStep(batchId, changes.slice(from, from + REPLACE_STEP)))) return false;
    }
    return true;
  }

  private async replaceStep(batchId: string, changes: Array<{ index: number; before: string; after: string }>): Promise<boolean> {
    if (changes.length === 0) return true;
    const keys = this.batchKeys(batchId);
    const rows = changes.map((c) => ({ ...c, facets: this.facetsOf(JSON.parse(c.after) as CatalogRecord) }));
    // The indexes the records are in now, as far as their text says (the stored facets are checked by the script).
    const names = new Set(rows.flatMap((r) => [...r.facets.i, ...this.facetsOf(JSON.parse(r.before) as CatalogRecord).i]));
    const args = rows.flatMap((c) => [String(c.index), c.before, c.after, JSON.stringify(c.facets)]);
    for (let attempt = 0; ; attempt++) {
      const list = [...names];
      const keyList = [keys.records, keys.facets, keys.stats, keys.clusters, keys.captions, ...list.map((n) => this.indexKey(batchId, n))];
      const out = await this.redis.pwReplaceRecords(keyList.length, ...keyList, JSON.stringify(list), ...args);
      if (!Array.isArray(out)) return out === 1;
      for (const n of out.slice(1)) names.add(n);
      if (attempt >= 5) throw new Error(`batch ${batchId}: stored indexes kept changing while records were replaced`);
    }
  }

  /**
   * Give every record stored without facets (by a version before they existed) its counters and
   * indexes, a chunk at a time, each record replaced by itself in one atomic step. Costs two HLENs
   * when there is nothing to do (the usual case: the summary calls it). Returns how many it indexed.
   */
  async ensureIndexed(batchId: string, expected: number): Promise<number> {
    const keys = this.batchKeys(batchId);
    const [records, facets] = await Promise.all([this.redis.hlen(keys.records), this.redis.hlen(keys.facets)]);
    if (facets >= records) return 0;
    let done = 0;
    const chunk = 500;
    for (let from = 0; from < expected; from += chunk) {
      const fields = Array.from({ length: Math.min(chunk, expected - from) }, (_, i) => String(from + i));
      const have = await this.redis.hmget(keys.facets, ...fields);
      const lacking = fields.filter((_, i) => have[i] === null);
      if (lacking.length === 0) continue;
      for (let attempt = 0; attempt < 5; attempt++) {
        const texts = await this.redis.hmget(keys.records, ...lacking);
        const changes = lacking.flatMap((f, i) => (texts[i] === null ? [] : [{ index: Number(f), before: texts[i]!, after: texts[i]! }]));
        if (await this.replaceRecords(batchId, changes)) {
          done += changes.length;
          break;
        }
      }
    }
    return done;
  }

  /**
   * The batch's counters, kept by the steps that store records (never a read of the records):
   * counts of records that are not failed (photos, caption-only, low-confidence credits,
   * near-duplicates, joined earlier clusters), failed records, clusters and distinct captions.
   */
  async counters(batchId: string): Promise<Record<CounterName, number> & { clusters: number; distinctCaptions: number }> {
    const keys = this.batchKeys(batchId);
    const [stats, clusters, captions] = await Promise.all([this.redis.hmget(keys.stats, ...COUNTERS), this.redis.hlen(keys.clusters), this.redis.hlen(keys.captions)]);
    const out = Object.fromEntries(COUNTERS.map((c, i) => [c, Number(stats[i] ?? 0)])) as Record<CounterName, number>;
    return { ...out, clusters, distinctCaptions: captions };
  }

  /** How many of the batch's records joined a cluster begun in one of `others` (one HMGET of the stats hash). */
  async joinedFrom(batchId: string, others: string[]): Promise<number> {
    const fields = [...new Set(others)].filter((b) => b !== batchId).map(joinedFromCounter);
    if (fields.length === 0) return 0;
    const values = await this.redis.hmget(this.batchKeys(batchId).stats, ...fields);
    return values.reduce((n, v) => n + Math.max(0, Number(v ?? 0)), 0);
  }

  /**
   * One page of records by batch index (feed order): indexes offset..offset+limit-1, one HMGET.
   * A batch still running may have holes (items in flight): the page is then shorter.
   * `total` is the number of records stored.
   */
  async getRecordsPage(batchId: string, page: { offset: number; limit: number }): Promise<{ total: number; records: CatalogRecord[] }> {
    const key = this.batchKeys(batchId).records;
    const fields = Array.from({ length: page.limit }, (_, i) => String(page.offset + i));
    const [total, values] = await Promise.all([this.redis.hlen(key), this.redis.hmget(key, ...fields)]);
    return { total, records: values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as CatalogRecord) };
  }

  /** Records at these batch indexes, in the order given (null where there is none). */
  async recordsAt(batchId: string, indexes: number[]): Promise<Array<CatalogRecord | null>> {
    if (indexes.length === 0) return [];
    const values = await this.redis.hmget(this.batchKeys(batchId).records, ...indexes.map(String));
    return values.map((v) => (v === null ? null : (JSON.parse(v) as CatalogRecord)));
  }

  /**
   * Ranks start..stop (inclusive) of an index, or of the intersection of several (kept
   * `keepSeconds` for the next pages): the batch indexes there, in feed order, and how many the
   * index holds. Index names: see src/core/records/recordFacets.ts.
   */
  async indexPage(batchId: string, names: string[], start: number, stop: number, keepSeconds = 30): Promise<{ total: number; indexes: number[] }> {
    if (names.length === 0) throw new Error('indexPage needs at least one index');
    const sorted = [...new Set(names)].sort();
    const tmp = this.batchKeys(batchId).intersection(createHash('sha1').update(sorted.join('\n')).digest('hex').slice(0, 20));
    const keyList = [tmp, ...sorted.map((n) => this.indexKey(batchId, n))];
    const out = await this.redis.pwIndexPage(keyList.length, ...keyList, String(start), String(stop), String(keepSeconds));
    return { total: Number(out[0]), indexes: out.slice(1).map(Number) };
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
