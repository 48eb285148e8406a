import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { cleanId, feedProvider, isGlobalAgencyId, providerOf, scopedAgencyId } from '../../core/kills/identity';
import { isReusedReference } from '../../core/kills/transmissionReference';
import { parseItemId } from '../../core/ids';
import type { KillStatus, NoticeRef } from '../../schemas/notice';
import type { CatalogRecord } from '../../schemas/record';
import { redisKeys, type KillKeys } from './keys';
import { luaFile, runScript, runScriptPipelined } from './scripts';

/**
 * Kills, withdrawals and corrections: an event stored once and applied to every record it
 * reaches, kept beside the catalog rather than in its records. Readers (API, export, desk) merge
 * `statusOf` into the records they return (src/app/presentRecords.ts).
 *
 * Every record is indexed by groups when it is stored:
 * - `a:<provider>/<id>` its agency ids (transmission reference, manifest id) in its provider's id
 *   space, or `a:<id>` for an id unique by itself (URN, tag: guid, UUID): src/core/kills/identity.ts;
 * - `b:<id>` the bare id, any provider: only a kill that named no provider starts there, and no
 *   kill walks through it (two agencies' "1" are two photos);
 * - `p:<photo id>` every version and byte-identical copy (src/adapters/redis/photoVersions.ts),
 *   `o:<stored original>` byte-identical copies, `i:<item id>` the item and its probable resends;
 * - `c:<caption cluster>` near-identical captions: listed for review, never killed through.
 *
 * Scale: memberships, reached records and review lists are sorted sets read in pages, never JSON
 * arrays rewritten per record, so registering a record costs the same whatever the size of its
 * groups, and a kill is applied in slices of SLICE records (each one short script) instead of one
 * script over everything it reaches (test/integration/kills.scale.test.ts reads SLOWLOG).
 */

/** Where a record is, as the Kills view lists it. */
export interface KillItemInfo {
  itemId: string;
  batchId: string;
  index: number | null;
  file: string;
  original: string | null;
  agencyId: string | null;
  photoId: string | null;
  photoVersion: number | null;
  caption: string;
  groups: string[];
  /** When photowire received it (ms): a kill naming a reused transmission reference only reaches records near it. */
  receivedMs?: number;
  /** Its groups that are reused transmission references (`a:AP/NYPS101`), windowed (src/core/kills/transmissionReference.ts). */
  refs?: string[];
}

export type KillKind = 'kill' | 'withdraw' | 'correction';

export interface KillLift {
  at: string;
  by: string;
  reason: string;
}

export interface KillEvent {
  id: string;
  kind: KillKind;
  /** The status it gives the records it reaches. */
  status: 'killed' | 'withdrawn' | 'superseded';
  /** What it named, as typed or read (agency ids, item ids, photo ids). */
  targets: string[];
  /** The groups it starts from (`a:AP/NYPS101`, `i:<item>`, `b:1`): what it stands for on later arrivals. */
  groups?: string[];
  reason: string | null;
  notice: NoticeRef;
  createdAt: string;
  /** Who placed it (a manual kill: the operator; a notice: the feed). */
  by?: string;
  /** The records it reached (the first `itemsLimit`; `itemCount` says how many in all). */
  items: string[];
  itemCount?: number;
  /** Near-identical captions in the killed records' clusters: for a person to look at (first page; `reviewCount` in all). */
  review: string[];
  reviewCount?: number;
  /** For a correction: the item that replaces the ones reached. */
  supersededBy: string | null;
  /** Set when a person lifted it: it reaches nothing more, and the records it had reached are as if it never came. */
  lifted?: KillLift | null;
}

export interface StoredStatus extends KillStatus {
  killId: string;
}

const SEP = '\u0000';
/** `[<prefix>` and the bound just past every member starting with it (0xFF never occurs in UTF-8). */
function lexRange(prefix: string): [string, Buffer] {
  return [`[${prefix}`, Buffer.concat([Buffer.from(`[${prefix}`, 'utf8'), Buffer.from([0xff])])];
}

/**
 * The kill store's scripts, in lua/kills/ (each file's header names its KEYS and ARGV); the parts
 * they share (marking a group, the live kill of a group, a record's status) in lua/includes/kill*.
 */
/** Index a stored record by its groups; kill it on arrival if a live kill marks one of them. */
const REGISTER = luaFile('pwKillRegister', 'kills/register');
/** Store a kill's event once and mark the groups it names ('new', 'done' or 'resume'). */
const START = luaFile('pwKillStart', 'kills/start');
/** One slice of a kill: its status to the records given; the groups it marked now, and their clusters. */
const SLICE = luaFile('pwKillSlice', 'kills/slice');
/** List near-identical captions of killed records for review, except those the kill reached. */
const REVIEW = luaFile('pwKillReview', 'kills/review');
const FINISH = luaFile('pwKillFinish', 'kills/finish');
/** Lift a kill, kept with who, when and why ('none', 'already' or 'lifted'). */
const LIFT = luaFile('pwKillLift', 'kills/lift');
/** Unmark groups of a lifted kill (a slice of them). */
const UNMARK = luaFile('pwKillUnmark', 'kills/unmark');
/** The records a lifted kill had given their status get what the live kills give them now. */
const RECHECK = luaFile('pwKillRecheck', 'kills/recheck');

/** Records per kill slice: the slowest slice of 256 took 47 ms at load 26 on this two-core box (npm run bench:kills), too near the 50 ms a Redis command may take; 128 halves it. */
const SLICE_SIZE = 128;
/** Groups whose first page of members is read in one pipeline. */
const GROUPS_PER_READ = 64;
/** Review candidates listed per kill (near-identical captions, across all clusters reached). */
const MAX_REVIEW = 1_000;
/** Clusters read for review per kill: a kill reaching thousands of records of one cluster reads that cluster once. */
const MAX_REVIEW_CLUSTERS = 200;
/** PHOTOWIRE_KILL_REF_WINDOW_HOURS default: AP reuses a reference from day to day; a kill comes within hours. */
export const DEFAULT_REF_WINDOW_MS = 72 * 3_600_000;
/** Items and review entries an event carries when read (the rest are paged: `reachedPage`). */
export const EVENT_ITEMS_LIMIT = 1_000;

const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);

/** The record's place in its feed: `index`, else from its item id (`<batchId>-0001`: src/core/ids.ts), which the item stage always has. */
function feedIndexOf(record: CatalogRecord): number | null {
  return parseItemId(record.id, record.batchId)?.index ?? null;
}

/** The provider whose id space the record's agency ids are in (src/core/kills/identity.ts). */
export function recordProvider(record: CatalogRecord): string {
  return providerOf(record.credit, feedProvider(record.source.file));
}

/** The record's agency ids as written (its feed's id, its IIM transmission reference), cleaned, once each. */
function agencyIdsOf(record: CatalogRecord): string[] {
  const ids = new Set<string>();
  for (const raw of [record.agencyId, record.iptc.transmissionReference]) {
    const id = raw ? cleanId(raw) : '';
    if (id) ids.add(id);
  }
  return [...ids];
}

/** The groups a record is indexed by. */
export function recordGroups(record: CatalogRecord): string[] {
  const g = new Set<string>([`i:${record.id}`]);
  const provider = recordProvider(record);
  for (const id of agencyIdsOf(record)) {
    g.add(`a:${scopedAgencyId(id, provider)}`);
    if (!isGlobalAgencyId(id)) g.add(`b:${id}`);
  }
  if (record.photo) g.add(`p:${record.photo.id}`);
  // byte-identical copies: the same photo whatever its reference or age
  if (record.image?.original) g.add(`o:${record.image.original}`);
  // a resend with a changed caption (and maybe re-encoded pixels) is killed with the item it resends
  if (record.probableResend && record.cluster) g.add(`i:${record.cluster.canonicalId}`);
  if (record.cluster) g.add(`c:${record.cluster.id}`);
  return [...g];
}

/** The bare id of an agency group: `a:AP/NYPS101` -> NYPS101, `b:NYPS101` -> NYPS101, `a:urn:...` -> the urn. */
function bareOf(group: string): string {
  const rest = group.slice(2);
  if (group.startsWith('b:') || isGlobalAgencyId(rest)) return rest;
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(slash + 1);
}

/**
 * The groups of a record that a kill reaches only near its time: reused transmission references,
 * and then also its photo id, since src/adapters/redis/photoVersions.ts joins a new version to a
 * photo by that same reference (last month's NYPS101 would be "version 1" of today's).
 */
export function windowedGroups(groups: string[]): string[] {
  const refs = groups.filter((g) => (g.startsWith('a:') || g.startsWith('b:')) && isReusedReference(bareOf(g)));
  return refs.length === 0 ? [] : [...refs, ...groups.filter((g) => g.startsWith('p:'))];
}

function parseEvent(json: string): KillEvent {
  const e = JSON.parse(json) as KillEvent;
  const notice = e.notice ? { ...e.notice, targets: list(e.notice.targets) } : e.notice;
  return {
    ...e,
    notice,
    items: list(e.items),
    review: list(e.review),
    targets: list(e.targets),
    groups: list(e.groups),
    supersededBy: e.supersededBy ?? null,
    reason: e.reason ?? null,
  };
}

export class KillStore {
  private readonly keys: KillKeys;
  private readonly refWindowMs: number;
  private migrated: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    opts: { refWindowMs?: number } = {},
  ) {
    this.refWindowMs = opts.refWindowMs ?? DEFAULT_REF_WINDOW_MS;
    this.keys = redisKeys(prefix).kill;
  }

  /**
   * Data written before memberships were sorted sets: each record's groups (kept in its info) go
   * into `members`, each event's reached and review arrays into their sets; once per prefix, in
   * pages, so nothing an older version indexed is lost to a kill that comes now.
   */
  private migrate(): Promise<void> {
    if (!this.migrated) {
      this.migrated = (async () => {
        const k = this.keys;
        if ((await this.redis.exists(k.groups)) === 0) return;
        let cursor = '0';
        do {
          const [next, flat] = await this.redis.hscan(k.items, cursor, 'COUNT', 500);
          cursor = next;
          const m = this.redis.multi();
          for (let i = 0; i < flat.length; i += 2) {
            const info = JSON.parse(flat[i + 1]) as KillItemInfo;
            for (const g of list(info.groups)) {
              m.zadd(k.members, 0, `${g}${SEP}${flat[i]}`);
              // an agency id of then had no provider: it is reached by its bare id, and listed as seen unscoped
              const id = g.slice(2);
              if (g.startsWith('a:') && !isGlobalAgencyId(id)) {
                m.zadd(k.members, 0, `b:${id}${SEP}${flat[i]}`);
                m.zadd(k.bare, 0, `${id}${SEP}${g}`);
              }
            }
          }
          await m.exec();
        } while (cursor !== '0');
        cursor = '0';
        do {
          const [next, flat] = await this.redis.hscan(k.events, cursor, 'COUNT', 100);
          cursor = next;
          const m = this.redis.multi();
          for (let i = 0; i < flat.length; i += 2) {
            const e = JSON.parse(flat[i + 1]) as KillEvent;
            for (const id of list(e.items)) m.zadd(k.reached, 0, `${e.id}${SEP}${id}`);
            for (const id of list(e.review)) m.zadd(k.review, 0, `${e.id}${SEP}${id}`);
            m.hset(k.events, e.id, JSON.stringify({ ...e, items: [], review: [] }));
          }
          await m.exec();
        } while (cursor !== '0');
        // marks written by one kill id per group stay valid (a list of one); record which groups each marked
        cursor = '0';
        do {
          const [next, flat] = await this.redis.hscan(k.killed, cursor, 'COUNT', 500);
          cursor = next;
          const m = this.redis.multi();
          for (let i = 0; i < flat.length; i += 2)
            for (const kid of flat[i + 1].split(' ')) m.zadd(k.marked, 0, `${kid}${SEP}${flat[i]}`);
          await m.exec();
        } while (cursor !== '0');
        await this.redis.del(k.groups);
      })();
      this.migrated.catch(() => (this.migrated = null));
    }
    return this.migrated;
  }

  private registerKeys(): string[] {
    const k = this.keys;
    return [
      k.items,
      k.members,
      k.status,
      k.killed,
      k.events,
      k.log,
      k.corrected,
      k.reached,
      k.marked,
      k.bare,
      k.lifted,
    ];
  }

  /** REGISTER's ARGV for a record. */
  private registerArgs(record: CatalogRecord, now: Date): string[] {
    const groups = recordGroups(record);
    const info: KillItemInfo = {
      itemId: record.id,
      batchId: record.batchId,
      index: record.index ?? feedIndexOf(record),
      file: record.source.file,
      original: record.image?.original ?? null,
      agencyId: record.agencyId,
      photoId: record.photo?.id ?? null,
      photoVersion: record.photo?.version ?? null,
      caption: record.caption.slice(0, 200),
      groups,
      receivedMs: now.getTime(),
      refs: windowedGroups(groups),
    };
    const bare = groups
      .filter((g) => g.startsWith('a:') && !isGlobalAgencyId(g.slice(2)))
      .map((g) => `${bareOf(g)}${SEP}${g}`);
    return [
      record.id,
      JSON.stringify(info),
      now.toISOString(),
      String(now.getTime()),
      String(this.refWindowMs),
      ...bare,
    ];
  }

  /** Index a record (after it is built, before it is stored); the kill status it arrives with, or null. */
  async register(record: CatalogRecord, now = new Date()): Promise<StoredStatus | null> {
    await this.migrate();
    const out = await runScript<string>(this.redis, REGISTER, this.registerKeys(), this.registerArgs(record, now));
    return out ? (JSON.parse(out) as StoredStatus) : null;
  }

  /**
   * `register` of several records, sent in one pipeline (a chunk of caption-only items, finalize's
   * re-clustered records): Redis runs them in the given order, each its own atomic step, as one at
   * a time would; no record's step reads another's answer.
   */
  async registerMany(records: ReadonlyArray<CatalogRecord>, now = new Date()): Promise<Array<StoredStatus | null>> {
    await this.migrate();
    const keys = this.registerKeys();
    const out = await runScriptPipelined<string>(
      this.redis,
      REGISTER,
      records.map((r) => ({ keys, args: this.registerArgs(r, now) })),
    );
    return out.map((o) => (o ? (JSON.parse(o) as StoredStatus) : null));
  }

  /**
   * Apply a kill, withdrawal or correction once: `id` is content-derived, so the same notice read
   * again (a retry, a re-ingest) returns the stored event unchanged; one whose application was cut
   * short (a process killed half-way) is finished. `groups` are the kill groups it starts from
   * (src/app/kills: an item id `i:`, a scoped agency id `a:`, a bare id `b:` ...).
   */
  async apply(p: {
    id: string;
    kind: KillKind;
    targets: string[];
    groups: string[];
    reason: string | null;
    notice: NoticeRef;
    by?: string;
    /** For a correction: the new item (never itself superseded). */
    supersededBy?: string | null;
    now?: Date;
  }): Promise<KillEvent> {
    await this.migrate();
    const now = p.now ?? new Date();
    const k = this.keys;
    const status = p.kind === 'kill' ? 'killed' : p.kind === 'withdraw' ? 'withdrawn' : 'superseded';
    const event: KillEvent = {
      id: p.id,
      kind: p.kind,
      status,
      targets: p.targets,
      groups: p.groups,
      reason: p.reason,
      notice: p.notice,
      createdAt: now.toISOString(),
      by: p.by,
      items: [],
      review: [],
      supersededBy: p.supersededBy ?? null,
    };
    const rank = p.kind === 'kill' ? 2 : p.kind === 'withdraw' ? 1 : 0;
    const [state, json] = await runScript<[string, string]>(
      this.redis,
      START,
      [k.events, k.log, k.killed, k.marked, k.corrected, k.applying, k.lifted],
      [p.id, JSON.stringify(event), String(now.getTime()), String(rank), ...p.groups],
    );
    if (state === 'done') return this.withItems(parseEvent(json));
    const stored = parseEvent(json);
    const atMs = Date.parse(stored.createdAt);
    const storedStatus: StoredStatus = {
      status,
      killedAt: status === 'superseded' ? null : stored.createdAt,
      reason: stored.reason,
      notice: stored.notice,
      supersededBy: stored.supersededBy,
      killId: p.id,
    };
    // Groups to read: the targets, and on a resume every group the kill had marked (their members may not all have been reached).
    const queue: Array<{ group: string; from: string | null }> = list(stored.groups).map((group) => ({
      group,
      from: null,
    }));
    if (state === 'resume' && rank > 0)
      for await (const g of this.lexPage(k.marked, p.id)) queue.push({ group: g, from: null });
    const read = new Set<string>();
    const clusters = new Set<string>();
    const sliceKeys = [k.items, k.status, k.killed, k.marked, k.reached, k.events, k.lifted, k.log];
    const sliceArgs = [
      p.id,
      JSON.stringify(storedStatus),
      String(rank),
      String(atMs),
      String(this.refWindowMs),
      stored.supersededBy ?? '',
    ];
    while (queue.length > 0) {
      // Many groups hold one record (an item id, an original): read up to GROUPS_PER_READ in one pipeline.
      const batch: Array<{ group: string; from: string | null }> = [];
      while (queue.length > 0 && batch.length < GROUPS_PER_READ) {
        const next = queue.shift()!;
        if (next.from === null) {
          if (read.has(next.group)) continue;
          read.add(next.group);
        }
        batch.push(next);
      }
      if (batch.length === 0) break;
      const pages = await this.membersPages(batch);
      const pairs: string[] = [];
      pages.forEach((ids, i) => {
        for (const id of ids) pairs.push(batch[i].group, id);
        if (ids.length === SLICE_SIZE) queue.push({ group: batch[i].group, from: ids[ids.length - 1] });
      });
      for (let i = 0; i < pairs.length; i += 2 * SLICE_SIZE) {
        const [, newGroups, cls] = await runScript<[number, string[], string[]]>(this.redis, SLICE, sliceKeys, [
          ...sliceArgs,
          ...pairs.slice(i, i + 2 * SLICE_SIZE),
        ]);
        for (const ng of list(newGroups)) if (!read.has(ng)) queue.push({ group: ng, from: null });
        for (const c of list(cls)) if (clusters.size < MAX_REVIEW_CLUSTERS) clusters.add(c);
      }
    }
    // Near-identical captions of what it reached: each cluster read once, capped in all.
    let listed = 0;
    for (const c of clusters) {
      if (listed >= MAX_REVIEW) break;
      for await (const ids of this.lexPages(k.members, c, SLICE_SIZE)) {
        const take = ids.slice(0, MAX_REVIEW - listed);
        listed += await runScript<number>(this.redis, REVIEW, [k.reached, k.review], [p.id, ...take]);
        if (listed >= MAX_REVIEW || take.length < ids.length) break;
      }
    }
    await runScript<number>(this.redis, FINISH, [k.applying], [p.id]);
    return this.withItems(stored);
  }

  /**
   * Lift a kill (a person's undo, kept with who, when and why): it reaches nothing more, the
   * groups it marked are unmarked, and every record it had given its status gets what the other
   * live kills give it now (often: active again). Null when there is no such kill.
   */
  async lift(
    killId: string,
    p: { by: string; reason: string; now?: Date },
  ): Promise<{ event: KillEvent; state: 'lifted' | 'already'; restored: number } | null> {
    await this.migrate();
    const k = this.keys;
    const now = p.now ?? new Date();
    const lift: KillLift = { at: now.toISOString(), by: p.by, reason: p.reason };
    const state = await runScript<string>(
      this.redis,
      LIFT,
      [k.events, k.lifted, k.audit],
      [killId, JSON.stringify(lift), JSON.stringify({ action: 'lift', killId, ...lift })],
    );
    if (state === 'none') return null;
    // Unmark and recheck even when it was lifted before: a lift cut short half-way is finished by the next.
    for await (const groups of this.lexPages(k.marked, killId, SLICE_SIZE, true)) {
      await runScript<number>(this.redis, UNMARK, [k.killed, k.marked, k.corrected], [killId, ...groups]);
    }
    for (const g of (await this.getEvent(killId))?.groups ?? []) {
      await runScript<number>(this.redis, UNMARK, [k.killed, k.marked, k.corrected], [killId, g]);
    }
    let restored = 0;
    for await (const ids of this.lexPages(k.reached, killId, SLICE_SIZE)) {
      restored += await runScript<number>(this.redis, RECHECK, this.registerKeys(), [
        killId,
        now.toISOString(),
        String(now.getTime()),
        String(this.refWindowMs),
        ...ids,
      ]);
    }
    const event = (await this.getEvent(killId))!;
    return { event, state: state as 'lifted' | 'already', restored };
  }

  /** Record that a kill was placed (who, when, why), for `kills --all` and the audit. */
  async audit(entry: {
    action: 'kill' | 'lift';
    killId: string;
    at: string;
    by: string;
    reason: string | null;
  }): Promise<void> {
    await this.redis.lpush(this.keys.audit, JSON.stringify(entry));
  }

  /** The audit trail, newest first. */
  async auditTrail(
    limit = 200,
  ): Promise<Array<{ action: string; killId: string; at: string; by: string; reason: string | null }>> {
    return (await this.redis.lrange(this.keys.audit, 0, limit - 1)).map((v) => JSON.parse(v));
  }

  /** Pages of the second parts of the lex members `<head>\0<x>` (ZRANGEBYLEX, `size` at a time). `consume`: the caller removes what it read, so always read from the start. */
  private async *lexPages(key: string, head: string, size: number, consume = false): AsyncGenerator<string[]> {
    const prefix = `${head}${SEP}`;
    const [start, end] = lexRange(prefix);
    let from: string = start;
    for (;;) {
      const page = await this.redis.zrangebylex(key, from, end, 'LIMIT', 0, size);
      if (page.length === 0) return;
      yield page.map((m) => m.slice(prefix.length));
      if (page.length < size) return;
      if (!consume) from = `(${page[page.length - 1]}`;
    }
  }

  /** The next page of members of each group (from its start, or after `from`), in one pipeline. */
  private async membersPages(groups: ReadonlyArray<{ group: string; from: string | null }>): Promise<string[][]> {
    const m = this.redis.pipeline();
    for (const { group, from } of groups) {
      const prefix = `${group}${SEP}`;
      const [start, end] = lexRange(prefix);
      m.zrangebylex(this.keys.members, from === null ? start : `(${prefix}${from}`, end, 'LIMIT', 0, SLICE_SIZE);
    }
    const out = (await m.exec()) ?? [];
    return out.map(([err, page], i) => {
      if (err) throw err;
      const prefix = `${groups[i].group}${SEP}`;
      return (page as string[]).map((x) => x.slice(prefix.length));
    });
  }

  private async *lexPage(key: string, head: string): AsyncGenerator<string> {
    for await (const page of this.lexPages(key, head, 1000)) yield* page;
  }

  /** The records a kill reached (or listed for review), `limit` from after `after` (an item id; '' from the start), and how many in all. */
  async reachedPage(
    killId: string,
    opts: { after?: string; limit?: number; review?: boolean } = {},
  ): Promise<{ items: string[]; total: number }> {
    const key = opts.review ? this.keys.review : this.keys.reached;
    const prefix = `${killId}${SEP}`;
    const [start, end] = lexRange(prefix);
    const from = opts.after ? `(${prefix}${opts.after}` : start;
    const [page, total] = await Promise.all([
      this.redis.zrangebylex(key, from, end, 'LIMIT', 0, opts.limit ?? EVENT_ITEMS_LIMIT),
      this.redis.zlexcount(key, start, end),
    ]);
    return { items: page.map((m) => m.slice(prefix.length)), total };
  }

  /** The event with its first page of reached records and review list, and their counts. */
  private async withItems(e: KillEvent, limit = EVENT_ITEMS_LIMIT): Promise<KillEvent> {
    const [items, review, lifted] = await Promise.all([
      this.reachedPage(e.id, { limit }),
      this.reachedPage(e.id, { limit, review: true }),
      this.redis.hget(this.keys.lifted, e.id),
    ]);
    return {
      ...e,
      items: items.items,
      itemCount: items.total,
      review: review.items,
      reviewCount: review.total,
      lifted: lifted ? (JSON.parse(lifted) as KillLift) : null,
    };
  }

  /** The kill status of each item that has one (missing: active as stored). */
  async statusOf(itemIds: string[]): Promise<Map<string, StoredStatus>> {
    const out = new Map<string, StoredStatus>();
    for (let i = 0; i < itemIds.length; i += 1000) {
      const chunk = itemIds.slice(i, i + 1000);
      const values = await this.redis.hmget(this.keys.status, ...chunk);
      values.forEach((v, j) => {
        if (v) out.set(chunk[j], JSON.parse(v) as StoredStatus);
      });
    }
    return out;
  }

  /** The scoped agency groups (`a:AP/NYPS101`, `a:DPA/1`) that a bare agency id was seen in, at most `limit`. */
  async providersOf(bareId: string, limit = 50): Promise<string[]> {
    const out = new Set<string>();
    for await (const page of this.lexPages(this.keys.bare, bareId, limit)) {
      for (const g of page) out.add(g);
      if (out.size >= limit) break;
    }
    return [...out];
  }

  async itemInfo(itemIds: string[]): Promise<Map<string, KillItemInfo>> {
    const out = new Map<string, KillItemInfo>();
    for (let i = 0; i < itemIds.length; i += 1000) {
      const chunk = itemIds.slice(i, i + 1000);
      const values = await this.redis.hmget(this.keys.items, ...chunk);
      values.forEach((v, j) => {
        if (v) out.set(chunk[j], JSON.parse(v) as KillItemInfo);
      });
    }
    return out;
  }

  async getEvent(id: string, itemsLimit = EVENT_ITEMS_LIMIT): Promise<KillEvent | null> {
    const v = await this.redis.hget(this.keys.events, id);
    return v ? this.withItems(parseEvent(v), itemsLimit) : null;
  }

  /** Kills, withdrawals and corrections since `sinceMs`, newest first; lifted ones only with `all`. */
  async list(sinceMs: number, opts: { limit?: number; all?: boolean; itemsLimit?: number } = {}): Promise<KillEvent[]> {
    const limit = opts.limit ?? 500;
    const ids = await this.redis.zrevrangebyscore(this.keys.log, '+inf', String(sinceMs), 'LIMIT', 0, limit);
    if (ids.length === 0) return [];
    const values = await this.redis.hmget(this.keys.events, ...ids);
    const events = await Promise.all(
      values.filter((v): v is string => !!v).map((v) => this.withItems(parseEvent(v), opts.itemsLimit ?? 200)),
    );
    return opts.all ? events : events.filter((e) => !e.lifted);
  }
}

/** A kill's id from what carried it: the same notice applied twice is one event. */
export function killIdOf(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 20);
}
