import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CatalogRecord, RecordError } from '../../schemas/record';
import { defaultCreditRules, type CreditRules } from '../../core/credits/rules';
import { redisKeys, type BatchKeys, type RedisKeys } from './keys';
import { luaFile, runScript } from './scripts';
import { RenditionOwners } from './renditionOwners';
import {
  COUNTERS,
  joinedFromCounter,
  recordFacets,
  type CounterName,
  type RecordFacets,
} from '../../core/records/recordFacets';
import { parseItemId } from '../../core/ids';

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
 * The catalog's scripts, in lua/catalog/ (each file's header names its KEYS and ARGV); a record's
 * counters and indexes (its facets) move in the same step as the record (lua/includes/recordFacets),
 * so a record stored again is never counted twice.
 */
/** Append a warning to a ledger's JSON list unless it is already there. */
const ADD_WARNING = luaFile('pwAddWarning', 'catalog/addWarning');
/** One item's outcome and record, counted only when its state changes; {'need', name...} asks for more index keys. */
const MARK_ITEM = luaFile('pwMarkItemIx', 'catalog/markItem');
/** MARK_ITEM for the records of a chunk of caption-only items, all or none. */
const MARK_ITEMS = luaFile('pwMarkItems', 'catalog/markItems');
/** Create a batch's ledger whole, or repair a partial one (counts recounted from the item states). */
const CREATE_BATCH = luaFile('pwCreateBatch2', 'catalog/createBatch');
/** Close a ledger when every item is counted, adding the round's processing time; an earlier round's finalize changes nothing. */
const FINISH_BATCH = luaFile('pwFinishBatch', 'catalog/finishBatch');
/** Failed items went back in the queue: a new round begins. */
const REOPEN_BATCH = luaFile('pwReopenBatch', 'catalog/reopenBatch');
/** Undo REOPEN_BATCH's round when the retry's finalize job could not be added. */
const REWIND_ROUND = luaFile('pwRewindRound', 'catalog/rewindRound');
/** A failure put back in the queue: its next failure is a new round. */
const MARK_RETRY_QUEUED = luaFile('pwMarkRetryQueued', 'catalog/markRetryQueued');
/** Replace records whose stored text is unchanged, all or none, moving their facets. */
const REPLACE_RECORDS = luaFile('pwReplaceRecords', 'catalog/replaceRecords');
/** A page of an index, or of the intersection of several (kept a short while for the next pages). */
const INDEX_PAGE = luaFile('pwIndexPage', 'catalog/indexPage');

/** Records per REPLACE_RECORDS call: bounded work per script, so other clients wait milliseconds, not a chunk. */
const REPLACE_STEP = 100;

export type CreateOutcome = 'created' | 'repaired' | 'exists';
export type FinishOutcome =
  | { state: 'done' }
  | { state: 'gone' }
  /** The caller's round is over: a retry reopened the batch since (the ledger's round is `round`); nothing changed. */
  | { state: 'stale'; round: number }
  | { state: 'short'; ok: number; failed: number; expected: number };

/**
 * The batch index of an item: the record's own `index`, else read back from its id, which
 * `itemIdFor(batchId, index)` builds from it (records of versions before `index` existed).
 */
export function batchIndexOf(record: Pick<CatalogRecord, 'id' | 'batchId' | 'index'>): number {
  if (record.index !== undefined) return record.index;
  const id = parseItemId(record.id, record.batchId);
  if (!id) throw new Error(`record ${record.id} of batch ${record.batchId} has no index and its id does not name one`);
  return id.index;
}

/** Batches, their ledgers and their records, in Redis under the configured prefix. */
export class CatalogStore {
  private readonly redis: Redis;
  private readonly keys: RedisKeys;
  /** Which records show each rendition set: the renditions route asks it before answering. */
  readonly renditionOwners: RenditionOwners;
  constructor(
    redis: Redis,
    prefix: string,
    /** The rules a record's agency index is named by (`agency=getty` finds `GETTY` and `Getty Images`). */
    private readonly rules: CreditRules = defaultCreditRules(),
  ) {
    this.redis = redis;
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
    const outcome = await runScript<CreateOutcome>(
      this.redis,
      CREATE_BATCH,
      [keys.ledger, keys.items],
      [
        l.id,
        l.feed,
        l.format,
        now.toISOString(),
        String(now.getTime()),
        String(l.expected),
        JSON.stringify(l.warnings),
        l.article ?? '',
        JSON.stringify(l.skipped ?? {}),
      ],
    );
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
    return {
      args: [
        record.id,
        failure ? 'failed' : 'ok',
        String(index),
        JSON.stringify(stored),
        failed ? JSON.stringify(failed) : '',
        JSON.stringify(facets),
      ],
      indexes: facets.i,
    };
  }

  /**
   * Call a marking script with the batch's keys and every index `names` holds; a stored record in
   * an index not named is answered with {'need', ...}: named too, and called again.
   */
  private async withIndexes<T>(
    batchId: string,
    names: Set<string>,
    what: string,
    call: (keys: string[], list: string[]) => Promise<T | string[]>,
  ): Promise<T> {
    const keys = this.batchKeys(batchId);
    for (let attempt = 0; ; attempt++) {
      const list = [...names];
      const out = await call(
        [
          keys.ledger,
          keys.items,
          keys.records,
          keys.errors,
          keys.facets,
          keys.stats,
          keys.clusters,
          keys.captions,
          ...list.map((n) => this.indexKey(batchId, n)),
        ],
        list,
      );
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
      runScript<string | string[]>(this.redis, MARK_ITEM, keyList, [...args, JSON.stringify(list)]),
    );
  }

  /**
   * The records of a chunk of one batch's items, each with its failure or null, in one atomic step
   * (MARK_ITEMS): all stored and counted, or none. Returns how many had no state before.
   */
  async markItems(
    batchId: string,
    entries: ReadonlyArray<{ record: CatalogRecord; failure: ItemFailure | null }>,
  ): Promise<number> {
    if (entries.length === 0) return 0;
    const names = new Set<string>();
    const args: string[] = [];
    for (const { record, failure } of entries) {
      if (record.batchId !== batchId)
        throw new Error(`markItems: record ${record.id} is of batch ${record.batchId}, not ${batchId}`);
      const one = this.markArgs(record, failure);
      args.push(...one.args);
      for (const n of one.indexes) names.add(n);
    }
    await this.renditionOwners.remember(entries.map((e) => e.record));
    return this.withIndexes(batchId, names, `a chunk of batch ${batchId}`, (keyList, list) =>
      runScript<number | string[]>(this.redis, MARK_ITEMS, keyList, [JSON.stringify(list), ...args]),
    );
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
    const out = await runScript<string>(
      this.redis,
      FINISH_BATCH,
      [key],
      [
        now.toISOString(),
        exportError ? exportError : exportError === null ? '-' : '',
        String(now.getTime()),
        Number.isFinite(fallback) ? String(fallback) : '',
        round === undefined ? '' : String(round),
      ],
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
    await runScript(this.redis, ADD_WARNING, [this.batchKeys(batchId).ledger], [warning]);
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
    return Number(
      await runScript<number>(
        this.redis,
        REOPEN_BATCH,
        [key],
        [String(Date.now()), Number.isFinite(elapsed) ? String(Math.max(0, elapsed)) : ''],
      ),
    );
  }

  /**
   * Undo reopenBatch's new round when its finalize job could not be added (the retry failed): the
   * finalize jobs of the round before are the batch's again. Only if no other reopen came since.
   */
  async rewindRound(batchId: string, round: number): Promise<void> {
    await runScript(this.redis, REWIND_ROUND, [this.batchKeys(batchId).ledger], [String(round)]);
  }

  /** `retry` put this failure back in the queue: its next failure is a new round (MARK_RETRY_QUEUED). */
  async markRetryQueued(batchId: string, itemId: string, at: string): Promise<boolean> {
    return (
      (await runScript<number>(this.redis, MARK_RETRY_QUEUED, [this.batchKeys(batchId).errors], [itemId, at])) === 1
    );
  }

  /**
   * Records in feed order, a chunk at a time: a 100,000-item batch is never held in memory whole
   * (finalize and summaries run on workers next to photos being rendered).
   */
  async *iterateRecords(
    batchId: string,
    expected: number,
    opts: { chunk?: number; onMissing?: (index: number) => void } = {},
  ): AsyncGenerator<CatalogRecord> {
    for await (const text of this.iterateRawRecords(batchId, expected, opts)) yield JSON.parse(text) as CatalogRecord;
  }

  /**
   * The same, each record as its stored JSON text (one line of records.ndjson as it is:
   * finalize does not parse and re-serialize every record to write the file).
   */
  async *iterateRawRecords(
    batchId: string,
    expected: number,
    opts: { chunk?: number; onMissing?: (index: number) => void } = {},
  ): AsyncGenerator<string> {
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
   * a re-run item, is not overwritten), in atomic steps of at most REPLACE_STEP records (measured:
   * one Lua call for a chunk of 500 held Redis for 160-485 ms). Each step is all or none; returns
   * false at the first step where one had changed (the steps before it are written), so the caller
   * reads them again: its patch skips records already as wanted. Used by the finalize's clustering
   * step and `clusters rebuild`.
   */
  async replaceRecords(
    batchId: string,
    changes: Array<{ index: number; before: string; after: string }>,
  ): Promise<boolean> {
    for (let from = 0; from < changes.length; from += REPLACE_STEP) {
      if (!(await this.replaceStep(batchId, changes.slice(from, from + REPLACE_STEP)))) return false;
    }
    return true;
  }

  private async replaceStep(
    batchId: string,
    changes: Array<{ index: number; before: string; after: string }>,
  ): Promise<boolean> {
    if (changes.length === 0) return true;
    const keys = this.batchKeys(batchId);
    const rows = changes.map((c) => ({ ...c, facets: this.facetsOf(JSON.parse(c.after) as CatalogRecord) }));
    // The indexes the records are in now, as far as their text says (the stored facets are checked by the script).
    const names = new Set(
      rows.flatMap((r) => [...r.facets.i, ...this.facetsOf(JSON.parse(r.before) as CatalogRecord).i]),
    );
    const args = rows.flatMap((c) => [String(c.index), c.before, c.after, JSON.stringify(c.facets)]);
    for (let attempt = 0; ; attempt++) {
      const list = [...names];
      const keyList = [
        keys.records,
        keys.facets,
        keys.stats,
        keys.clusters,
        keys.captions,
        ...list.map((n) => this.indexKey(batchId, n)),
      ];
      const out = await runScript<number | string[]>(this.redis, REPLACE_RECORDS, keyList, [
        JSON.stringify(list),
        ...args,
      ]);
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
        const changes = lacking.flatMap((f, i) =>
          texts[i] === null ? [] : [{ index: Number(f), before: texts[i]!, after: texts[i]! }],
        );
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
  async counters(
    batchId: string,
  ): Promise<Record<CounterName, number> & { clusters: number; distinctCaptions: number }> {
    const keys = this.batchKeys(batchId);
    const [stats, clusters, captions] = await Promise.all([
      this.redis.hmget(keys.stats, ...COUNTERS),
      this.redis.hlen(keys.clusters),
      this.redis.hlen(keys.captions),
    ]);
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
  async getRecordsPage(
    batchId: string,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; records: CatalogRecord[] }> {
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
  async indexPage(
    batchId: string,
    names: string[],
    start: number,
    stop: number,
    keepSeconds = 30,
  ): Promise<{ total: number; indexes: number[] }> {
    if (names.length === 0) throw new Error('indexPage needs at least one index');
    const sorted = [...new Set(names)].sort();
    const tmp = this.batchKeys(batchId).intersection(
      createHash('sha1').update(sorted.join('\n')).digest('hex').slice(0, 20),
    );
    const keyList = [tmp, ...sorted.map((n) => this.indexKey(batchId, n))];
    const out = await runScript<Array<string | number>>(this.redis, INDEX_PAGE, keyList, [
      String(start),
      String(stop),
      String(keepSeconds),
    ]);
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
