import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isReusedReference } from '../../core/kills/transmissionReference';
import type { KillStatus, NoticeRef } from '../../schemas/notice';
import type { CatalogRecord } from '../../schemas/record';
import { redisKeys, type KillKeys } from './keys';
import { luaScript, runScript, runScriptPipelined } from './scripts';

/**
 * Kills, withdrawals and corrections (issue 16): an event stored once and applied to every record
 * it reaches, kept beside the catalog rather than in its records. Readers (API, export, desk)
 * merge `statusOf` into the records they return (src/app/presentRecords.ts).
 *
 * Every record is indexed by groups when it is stored: `a:<agency id>` (guid, transmission
 * reference), `p:<photo id>` (every version and byte-identical copy, src/adapters/redis/photoVersions.ts),
 * `i:<item id>` (the item and its probable resends), `o:<stored original>` (byte-identical copies),
 * `c:<caption cluster>` (near-identical captions: listed for review, never killed through).
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
  /** Its groups that are reused transmission references (`a:NYPS101`), windowed (src/core/kills/transmissionReference.ts). */
  refs?: string[];
}

export type KillKind = 'kill' | 'withdraw' | 'correction';

export interface KillEvent {
  id: string;
  kind: KillKind;
  /** The status it gives the records it reaches. */
  status: 'killed' | 'withdrawn' | 'superseded';
  /** Agency ids or item ids it named. */
  targets: string[];
  reason: string | null;
  notice: NoticeRef;
  createdAt: string;
  /** Every record it reached, in the order found (items that arrive later are added). */
  items: string[];
  /** Near-identical captions in the killed records' clusters: for a person to look at. */
  review: string[];
  /** For a correction: the item that replaces the ones reached. */
  supersededBy: string | null;
}

export interface StoredStatus extends KillStatus {
  killId: string;
}

/**
 * Apply a kill: walk the groups from the targets to every item (and the groups of those items),
 * set each one's status, mark the groups killed (later arrivals), list cluster neighbours for review.
 * A group that is a reused transmission reference (in a member's `refs`) reaches only the members
 * received within windowMs of the kill (a guid, photo or item group reaches all of them).
 * A correction marks its groups in the corrected hash, so an older item of the same feed that is
 * stored after it (items run in parallel) is superseded on arrival (REGISTER).
 * KEYS: items hash, groups hash, status hash, killed hash (group → kill id), events hash, log zset,
 *       corrected hash (group → correction id).
 * ARGV: killId, event JSON (items/review filled here), status JSON, nowMs, maxItems, rank (2 kill,
 *       1 withdraw, 0 correction), excludeItem ('' or the correction itself), windowMs, target groups...
 */
const APPLY = luaScript(
  'pwApplyKill',
  `
local existing = redis.call('HGET', KEYS[5], ARGV[1])
if existing then return existing end
local rank = tonumber(ARGV[6])
local nowMs = tonumber(ARGV[4])
local windowMs = tonumber(ARGV[8])
local seen, order, done, queue, refGroup = {}, {}, {}, {}, {}
for i = 9, #ARGV do queue[#queue + 1] = ARGV[i] end
local max = tonumber(ARGV[5])
local function decoded(hash, field)
  local v = redis.call('HGET', hash, field)
  if v then return cjson.decode(v) end
  return false
end
-- Through group g, an item is reached unless g is a reused reference of it received outside the window.
local function nearEnough(dec, g)
  if not dec or type(dec.refs) ~= 'table' then return true end
  local near = true
  for _, r in ipairs(dec.refs) do
    if r == g then
      refGroup[g] = true
      if type(dec.receivedMs) == 'number' and math.abs(dec.receivedMs - nowMs) > windowMs then near = false end
    end
  end
  return near
end
local function reach(id, dec)
  seen[id] = true
  order[#order + 1] = id
  if not dec or rank <= 0 then return end
  for _, g2 in ipairs(dec.groups) do
    if string.sub(g2, 1, 2) ~= 'c:' and not done[g2] then queue[#queue + 1] = g2 end
  end
end
local function visit(g)
  for _, id in ipairs(decoded(KEYS[2], g) or {}) do
    if not seen[id] and id ~= ARGV[7] then
      local dec = decoded(KEYS[1], id)
      if nearEnough(dec, g) then reach(id, dec) end
    end
  end
end
local qi = 1
while qi <= #queue and #order < max do
  local g = queue[qi]
  qi = qi + 1
  if not done[g] then
    done[g] = true
    visit(g)
  end
end
local rankOf = { killed = 2, withdrawn = 1, superseded = 0, active = -1 }
for _, id in ipairs(order) do
  local cur = redis.call('HGET', KEYS[3], id)
  local curRank = -1
  if cur then curRank = rankOf[cjson.decode(cur).status] or -1 end
  if curRank < rank or (rank == 0 and curRank < 0) then redis.call('HSET', KEYS[3], id, ARGV[3]) end
end
local groups = {}
if rank > 0 then
  for g, _ in pairs(done) do
    if refGroup[g] then
      -- a reused reference: the latest kill decides what arrives after it (within its window)
      redis.call('HSET', KEYS[4], g, ARGV[1])
      groups[#groups + 1] = g
    elseif string.sub(g, 1, 2) ~= 'c:' then
      redis.call('HSETNX', KEYS[4], g, ARGV[1])
      groups[#groups + 1] = g
    end
  end
else
  for i = 9, #ARGV do redis.call('HSET', KEYS[7], ARGV[i], ARGV[1]) end
end
local review, inReview = {}, {}
-- The other members of a reached item's caption clusters: listed for a person, never killed.
local function listNeighbours(id)
  local info = decoded(KEYS[1], id)
  if not info then return end
  for _, g in ipairs(info.groups) do
    if string.sub(g, 1, 2) == 'c:' then
      for _, other in ipairs(decoded(KEYS[2], g) or {}) do
        if not seen[other] and not inReview[other] then
          inReview[other] = true
          review[#review + 1] = other
        end
      end
    end
  end
end
if rank > 0 then
  for _, id in ipairs(order) do listNeighbours(id) end
end
local event = cjson.decode(ARGV[2])
event.items = order
event.review = review
local out = cjson.encode(event)
redis.call('HSET', KEYS[5], ARGV[1], out)
redis.call('ZADD', KEYS[6], tonumber(ARGV[4]), ARGV[1])
return out
`,
);

/**
 * Index a stored record by its groups; if one of them was killed, kill it on arrival and add it to
 * that kill's items. A killed group that is a reused transmission reference (in the record's
 * `refs`) kills only what arrives within windowMs of that kill (its time is its score in the log).
 * Not killed: an item of the same batch as a correction of one of its groups, earlier in the feed
 * than the correction, arriving after it, is superseded by it.
 * KEYS: items hash, groups hash, status hash, killed hash, events hash, log zset, corrected hash.
 * ARGV: itemId, info JSON (with groups, refs), nowIso, nowMs, windowMs.
 */
const REGISTER = luaScript(
  'pwRegisterKillItem',
  `
local info = cjson.decode(ARGV[2])
local nowMs = tonumber(ARGV[4])
local windowMs = tonumber(ARGV[5])
local isRef = {}
if type(info.refs) == 'table' then for _, r in ipairs(info.refs) do isRef[r] = true end end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local killId = false
for _, g in ipairs(info.groups) do
  local members = redis.call('HGET', KEYS[2], g)
  local list = {}
  if members then list = cjson.decode(members) end
  local found = false
  for _, id in ipairs(list) do if id == ARGV[1] then found = true end end
  if not found then
    list[#list + 1] = ARGV[1]
    redis.call('HSET', KEYS[2], g, cjson.encode(list))
  end
  if not killId and string.sub(g, 1, 2) ~= 'c:' then
    killId = redis.call('HGET', KEYS[4], g)
    if killId and isRef[g] then
      local at = redis.call('ZSCORE', KEYS[6], killId)
      if at and math.abs(nowMs - tonumber(at)) > windowMs then killId = false end
    end
  end
end
local current = redis.call('HGET', KEYS[3], ARGV[1])
if current then return current end
if not killId then
  for _, g in ipairs(info.groups) do
    local cid = redis.call('HGET', KEYS[7], g)
    local evJson = cid and redis.call('HGET', KEYS[5], cid)
    if evJson then
      local ev = cjson.decode(evJson)
      local by = ev.supersededBy
      local supJson = type(by) == 'string' and by ~= ARGV[1] and redis.call('HGET', KEYS[1], by)
      if supJson then
        local sup = cjson.decode(supJson)
        if sup.batchId == info.batchId and type(sup.index) == 'number' and type(info.index) == 'number' and info.index < sup.index then
          local items = ev.items
          if type(items) ~= 'table' or items[1] == nil then items = {} end
          items[#items + 1] = ARGV[1]
          ev.items = items
          redis.call('HSET', KEYS[5], cid, cjson.encode(ev))
          local st = cjson.encode({ status = 'superseded', killedAt = cjson.null, reason = ev.reason, notice = ev.notice, supersededBy = by, killId = cid })
          redis.call('HSET', KEYS[3], ARGV[1], st)
          return st
        end
      end
    end
  end
  return ''
end
local eventJson = redis.call('HGET', KEYS[5], killId)
if not eventJson then return '' end
local event = cjson.decode(eventJson)
local items = event.items
if type(items) ~= 'table' or items[1] == nil then items = {} end
items[#items + 1] = ARGV[1]
event.items = items
redis.call('HSET', KEYS[5], killId, cjson.encode(event))
for _, g in ipairs(info.groups) do
  if string.sub(g, 1, 2) ~= 'c:' and not isRef[g] then redis.call('HSETNX', KEYS[4], g, killId) end
end
local status = cjson.encode({ status = event.status, killedAt = ARGV[3], reason = event.reason, notice = event.notice, supersededBy = cjson.null, killId = killId })
redis.call('HSET', KEYS[3], ARGV[1], status)
return status
`,
);

const MAX_ITEMS_PER_KILL = 10_000;
/** PHOTOWIRE_KILL_REF_WINDOW_HOURS default: AP reuses a reference from day to day; a kill comes within hours. */
export const DEFAULT_REF_WINDOW_MS = 72 * 3_600_000;
const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);

function parseEvent(json: string): KillEvent {
  const e = JSON.parse(json) as KillEvent;
  return { ...e, items: list(e.items), review: list(e.review), targets: list(e.targets), supersededBy: e.supersededBy ?? null, reason: e.reason ?? null };
}

/** The record's place in its feed: `index`, else from its item id (`<batchId>-0001`: src/core/ids.ts), which the item stage always has. */
function feedIndexOf(record: CatalogRecord): number | null {
  const prefix = `${record.batchId}-`;
  if (!record.id.startsWith(prefix)) return null;
  const n = Number(record.id.slice(prefix.length));
  return Number.isInteger(n) && n > 0 ? n - 1 : null;
}

/** The groups a record is indexed by. */
export function recordGroups(record: CatalogRecord): string[] {
  const g = new Set<string>([`i:${record.id}`]);
  for (const id of [record.agencyId, record.iptc.transmissionReference, record.source.format === 'newsml-g2' ? record.agencyId : null]) {
    if (id && id.trim()) g.add(`a:${id.trim()}`);
  }
  if (record.photo) g.add(`p:${record.photo.id}`);
  // byte-identical copies: the same photo whatever its reference or age
  if (record.image?.original) g.add(`o:${record.image.original}`);
  // a resend with a changed caption (and maybe re-encoded pixels) is killed with the item it resends
  if (record.probableResend && record.cluster) g.add(`i:${record.cluster.canonicalId}`);
  if (record.cluster) g.add(`c:${record.cluster.id}`);
  return [...g];
}

/**
 * The groups of a record that a kill reaches only near its time: reused transmission references,
 * and then also its photo id, since src/adapters/redis/photoVersions.ts joins a new version to a
 * photo by that same reference (last month's NYPS101 would be "version 1" of today's).
 */
export function windowedGroups(groups: string[]): string[] {
  const refs = groups.filter((g) => g.startsWith('a:') && isReusedReference(g.slice(2)));
  return refs.length === 0 ? [] : [...refs, ...groups.filter((g) => g.startsWith('p:'))];
}

export class KillStore {
  private readonly keys: KillKeys;
  private readonly refWindowMs: number;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    opts: { refWindowMs?: number } = {},
  ) {
    this.refWindowMs = opts.refWindowMs ?? DEFAULT_REF_WINDOW_MS;
    this.keys = redisKeys(prefix).kill;
  }

  /** The seven keys both scripts take, in their KEYS order (all in the `{<p>:kill}` slot). */
  private scriptKeys(): string[] {
    const k = this.keys;
    return [k.items, k.groups, k.status, k.killed, k.events, k.log, k.corrected];
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
    return [record.id, JSON.stringify(info), now.toISOString(), String(now.getTime()), String(this.refWindowMs)];
  }

  /** Index a record (after it is built, before it is stored); the kill status it arrives with, or null. */
  async register(record: CatalogRecord, now = new Date()): Promise<StoredStatus | null> {
    const out = await runScript<string>(this.redis, REGISTER, this.scriptKeys(), this.registerArgs(record, now));
    return out ? (JSON.parse(out) as StoredStatus) : null;
  }

  /**
   * `register` of several records, sent in one pipeline (issue 14: a chunk of caption-only items,
   * finalize's re-clustered records): Redis runs them in the given order, each its own atomic step,
   * as one at a time would; no record's step reads another's answer.
   */
  async registerMany(records: ReadonlyArray<CatalogRecord>, now = new Date()): Promise<Array<StoredStatus | null>> {
    const keys = this.scriptKeys();
    const out = await runScriptPipelined<string>(this.redis, REGISTER, records.map((r) => ({ keys, args: this.registerArgs(r, now) })));
    return out.map((o) => (o ? (JSON.parse(o) as StoredStatus) : null));
  }

  /**
   * Apply a kill, withdrawal or correction once: `id` is content-derived, so the same notice read
   * again (a retry, a re-ingest) returns the stored event unchanged.
   */
  async apply(p: {
    id: string;
    kind: KillKind;
    targets: { agencyIds: string[]; itemIds: string[] };
    reason: string | null;
    notice: NoticeRef;
    /** For a correction: the new item (never itself superseded). */
    supersededBy?: string | null;
    now?: Date;
  }): Promise<KillEvent> {
    const now = p.now ?? new Date();
    const status = p.kind === 'kill' ? 'killed' : p.kind === 'withdraw' ? 'withdrawn' : 'superseded';
    const event: KillEvent = {
      id: p.id,
      kind: p.kind,
      status,
      targets: [...p.targets.agencyIds, ...p.targets.itemIds],
      reason: p.reason,
      notice: p.notice,
      createdAt: now.toISOString(),
      items: [],
      review: [],
      supersededBy: p.supersededBy ?? null,
    };
    const stored: StoredStatus = { status, killedAt: status === 'superseded' ? null : now.toISOString(), reason: p.reason, notice: p.notice, supersededBy: p.supersededBy ?? null, killId: p.id };
    const groups = [...p.targets.agencyIds.map((a) => `a:${a}`), ...p.targets.itemIds.map((i) => `i:${i}`)];
    const rank = p.kind === 'kill' ? 2 : p.kind === 'withdraw' ? 1 : 0;
    const out = await runScript<string>(this.redis, APPLY, this.scriptKeys(), [
      p.id, JSON.stringify(event), JSON.stringify(stored), String(now.getTime()), String(MAX_ITEMS_PER_KILL), String(rank), p.supersededBy ?? '', String(this.refWindowMs), ...groups,
    ]);
    return parseEvent(out);
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

  /** Is this an item id photowire has indexed? (photowire kill takes an item id or an agency id.) */
  async hasItem(itemId: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.items, itemId)) === 1;
  }

  async itemInfo(itemIds: string[]): Promise<Map<string, KillItemInfo>> {
    const out = new Map<string, KillItemInfo>();
    if (itemIds.length === 0) return out;
    const values = await this.redis.hmget(this.keys.items, ...itemIds);
    values.forEach((v, j) => {
      if (v) out.set(itemIds[j], JSON.parse(v) as KillItemInfo);
    });
    return out;
  }

  async getEvent(id: string): Promise<KillEvent | null> {
    const v = await this.redis.hget(this.keys.events, id);
    return v ? parseEvent(v) : null;
  }

  /** Kills, withdrawals and corrections since `sinceMs`, newest first. */
  async list(sinceMs: number, limit = 500): Promise<KillEvent[]> {
    const ids = await this.redis.zrevrangebyscore(this.keys.log, '+inf', String(sinceMs), 'LIMIT', 0, limit);
    if (ids.length === 0) return [];
    const values = await this.redis.hmget(this.keys.events, ...ids);
    return values.filter((v): v is string => !!v).map(parseEvent);
  }
}

/** A kill's id from what carried it: the same notice applied twice is one event. */
export function killIdOf(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 20);
}
