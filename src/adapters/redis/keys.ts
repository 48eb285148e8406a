/**
 * Every Redis key photowire uses, in one place (BullMQ's `QueueKeys` is the model).
 * No other file builds a key name: adapters ask `redisKeys(prefix)` and pass what a Lua script
 * touches in its KEYS.
 *
 * Redis Cluster: every key carries a hash tag (the first `{...}` in its name decides
 * its slot), chosen so that the keys one Lua script or one MULTI touches share a slot:
 *
 *   keys                                tag                         touched together by
 *   batch ledger, items, records,       {<p>:batch:<batchId>}       CREATE_BATCH, MARK_ITEM, FINISH,
 *     errors, retry claims                                          REOPEN, MARK_RETRY_QUEUED, DEL of claims
 *   catalog's batch list (zset)         {<p>:catalog}               alone (ZADD/ZREVRANGE): never inside a
 *                                                                   batch's script, it is another slot
 *   kill items/members/status/killed/   {<p>:kill}                  the kill store's scripts (killStore.ts)
 *     events/log/corrected/reached/...
 *   photo pixels/ref/items/versions     {<p>:photo}                 REGISTER_PHOTO (the photo's own keys
 *                                                                   are passed in KEYS too)
 *   runs list, runs by schedule, runs   {<p>:runs}                  lua/foldEmptyRun, save's MULTI, MGET
 *   sources set and each source         {<p>:sources}               registerSource/removeSource MULTI
 *   a schedule's cursor/pending/lock    {<p>:schedule:<name>}       commit's MULTI, reset's DEL
 *   a hot-folder file's claim           {<p>:claim:<sha256>}        the lease's RENEW/RELEASE (one key)
 *   a hot folder's pair waits, and      {<p>:pair:<sha256>}         alone (HSETNX/HGET/HDEL; SET/EXISTS)
 *     whether it receives deliveries
 *   the records of a rendition set      {<p>:rend:<sha256>}         REMEMBER_OWNER (one key)
 *   caption clusters: meta, lock,       {<p>:clusters}              the caption-cluster index's pipelines
 *     canonicals, members, items,                                   (captionIndexSubject.ts), which run
 *     buckets, sizes, last seen                                     under its batch lock
 *   the old threshold index's keys      `<p>:dedup:*`               only looked for (the start check) and
 *                                                                   deleted by `photowire clusters rebuild`
 *   stories: items, parents, sizes,     {<p>:story}                 the story store's steps (storyStore.ts),
 *     members, buckets, rule                                        which run under the caption index's batch lock
 *   BullMQ queues                       prefix `{<p>}`              BullMQ's own scripts: a flow's parent and
 *                                                                   children are in one slot
 *
 * Layout 2 renamed the keys of layout 1 (no tags); src/adapters/redis/keyLayout.ts moves a single
 * Redis's layout-1 data to these names once, on start, and docs/SCALING.md says what changed.
 */

/** The key layout this code reads and writes; stored at `layout` (see keyLayout.ts). */
export const KEY_LAYOUT_VERSION = 2;

/** The keys of one batch: all in the batch's slot. */
export interface BatchKeys {
  /** Hash: id, feed, format, expected, ok, failed, state, warnings, ... */
  ledger: string;
  /** Hash: itemId -> ok | failed. */
  items: string;
  /** Hash: batch index -> record JSON. */
  records: string;
  /** Hash: itemId -> failure JSON. */
  errors: string;
  /** Hash: batch index -> the record's facets JSON (src/core/records/recordFacets.ts), kept by MARK_ITEM/REPLACE_RECORDS. */
  facets: string;
  /** Hash: the batch's counters (records, photos, captionOnly, lowConfidence, duplicates, joinedEarlier, failedRecords). */
  stats: string;
  /** Hash: cluster id -> members in the batch. */
  clusters: string;
  /** Hash: caption digest -> records in the batch. */
  captions: string;
  /** Hash: a path dropped into a hot folder (a top-level entry) -> where the watcher moved it (`processed/<day>/...`). */
  moved: string;
  /** Zset: one index of the batch (`ok`, `failed`, `low`, `c:<cluster>`, `a:<org>`, `p:<word>`), batch indexes scored by themselves. */
  index(name: string): string;
  /** Zset with a TTL: the intersection of several indexes, named by a digest of their names. */
  intersection(digest: string): string;
  /** The tag itself, `{<p>:batch:<id>}`: any key starting with it is in the batch's slot. */
  tag: string;
}

/**
 * The kill store's keys, all in the `{<p>:kill}` slot. The sorted sets whose members are
 * `<a>\0<b>` (score 0, read by ZRANGEBYLEX) are one key each for what would otherwise be a key per
 * group or per kill, so every script names its keys up front and each step is O(log n).
 */
export interface KillKeys {
  /** Hash: itemId -> where the record is and its groups (JSON). */
  items: string;
  /** Hash of JSON arrays (layout before 2026-12): group -> item ids; read once to move into `members`, then deleted. */
  groups: string;
  /** Zset (lex): `<group>\0<itemId>` for every group of every record. */
  members: string;
  /** Hash: itemId -> its kill status (JSON). */
  status: string;
  /** Hash: group -> the live kill ids that marked it, space-separated in the order they did. */
  killed: string;
  /** Hash: killId -> the event (JSON, without its reached items). */
  events: string;
  /** Zset: killId by its time (ms). */
  log: string;
  /** Hash: group -> the correction id that marked it. */
  corrected: string;
  /** Zset (lex): `<killId>\0<itemId>` for every record a kill reached. */
  reached: string;
  /** Zset (lex): `<killId>\0<itemId>`: near-identical captions listed for review. */
  review: string;
  /** Zset (lex): `<killId>\0<group>`: the groups a kill marked (what lifting it unmarks). */
  marked: string;
  /** Zset (lex): `<bare agency id>\0<scoped group>`: the providers an id was seen from. */
  bare: string;
  /** List: kills placed and lifted, who, when, why (JSON), newest first. */
  audit: string;
  /** Set: kills still being applied (their slices not all run): finished by the next apply of the same id. */
  applying: string;
  /** Hash: killId -> who lifted it, when and why (JSON). A lifted kill reaches nothing more. */
  lifted: string;
}

export interface PhotoKeys {
  /** String: JPEG scan data sha256 -> photo id. */
  byPixels(pixelSha256: string): string;
  /** String: agency id (guid, transmission reference) -> photo id. */
  byRef(agencyRef: string): string;
  /** Hash: itemId -> "photoId phash". */
  items: string;
  /** Hash: sha256 -> version number, of one photo. */
  versions(photoId: string): string;
  /** Hash: version -> "itemId sha256" (the first item of each version), of one photo. */
  firstItems(photoId: string): string;
}

export interface RunKeys {
  /** Zset: run id by start (ms). */
  all: string;
  /** Zset: a schedule's run ids by start. */
  bySchedule(schedule: string): string;
  /** String: a run's record (JSON). */
  run(runId: string): string;
}

export interface SourceKeys {
  /** Set: `<kind>:<name>` of every source tracked. */
  all: string;
  /** Hash: one source's silence (since, lastNewAt, lastCheckAt...). */
  source(kind: string, name: string): string;
}

export interface ScheduleKeys {
  /** Hash: cursor entries (key -> signature and time taken). */
  cursor: string;
  /** String: the pending run (JSON). */
  pending: string;
  /** String: the run lease (src/sources/lease.ts). */
  lock: string;
}

/**
 * The old threshold caption index (layout v2, removed): never written any more. Its pointer tells
 * a Redis that still holds it (the new index refuses to start empty beside it), and
 * `photowire clusters rebuild` deletes every key under `prefix`.
 */
export interface DedupKeys {
  /** What every key of the old index started with: `<p>:dedup:`. */
  prefix: string;
  /** String: the old index's pointer to its active base (`<p>:dedup:active`). */
  active: string;
}

/** The caption-cluster index (captionIndexSubject.ts): every key under one base, one hash tag. */
export interface ClusterIndexKeys {
  /** The base every key below starts with: `{<p>:clusters}:`. */
  base: string;
  /** String: the fingerprint of the rule and parameters the index was built with. */
  meta: string;
  /** String: set while `clusters rebuild` fills the index (the index is refused until it is done). */
  rebuilding: string;
  /** String: the batch lock (SET NX PX, renewed while a batch is assigned). */
  lock: string;
  /** Zset: cluster id -> members after the canonical (clusters of 2+ only). */
  sizes: string;
  /** Zset (one of 2^12 shards, by the id's first 3 hex digits): cluster id -> last seen, whole hours in seconds. */
  seen: (shard: number) => string;
  /** String: the retention walk's next last-seen shard. */
  expiry: string;
  /** String: a random token set whenever clusters are removed (retention, rebuild): processes drop their cached canonicals when it changes. */
  generation: string;
  /** String: JSON [canonical item id, canonical caption as given, its head tokens] of a cluster. */
  cluster: (id: string) => string;
  /** List: member item ids after the canonical, in joining order. */
  members: (id: string) => string;
  /** Hash (one of 2^16 shards): item id -> `<cluster id>|<exact 0/1>|<similarity>`. */
  items: (shard: number) => string;
  /** Hash (one of 2^14 shards): 12-hex segment key -> concatenated 16-hex cluster ids. */
  bucket: (shard: number) => string;
}

/** Keys of the old threshold index under a prefix (what the start check and the rebuild look for). */
export function dedupKeys(prefix: string): DedupKeys {
  return { prefix: `${prefix}:dedup:`, active: `${prefix}:dedup:active` };
}

/** Keys of the caption-cluster index under a prefix. */
export function clusterIndexKeys(prefix: string): ClusterIndexKeys {
  // The prefix in the tag, like every other group: two deployments on one Redis Cluster use two slots.
  const base = `${hashTag(`${prefix}:clusters`)}:`;
  return {
    base,
    meta: `${base}meta`,
    rebuilding: `${base}rebuilding`,
    lock: `${base}lock`,
    sizes: `${base}sizes`,
    seen: (shard) => `${base}s:${shard.toString(16)}`,
    expiry: `${base}expiry`,
    generation: `${base}generation`,
    cluster: (id) => `${base}c:${id}`,
    members: (id) => `${base}m:${id}`,
    items: (shard) => `${base}i:${shard}`,
    bucket: (shard) => `${base}b:${shard}`,
  };
}

/** The story store's keys (src/adapters/redis/storyStore.ts), all in the `{<p>:story}` slot. */
export interface StoryKeys {
  /** Hash: itemId -> JSON of the member (story id at join, evidence, why it joined). */
  items: string;
  /** Hash: story id -> the story it was merged into (a union-find parent; roots have none). */
  parent: string;
  /** Hash: root story id -> members. */
  sizes: string;
  /** Zset: a root story's item ids, scored by join order. */
  members(storyId: string): string;
  /** List: the most recent item ids of one candidate bucket (a slug, or a MinHash band of the background words). */
  bucket(band: string): string;
  /** String: the join counter (member scores). */
  seq: string;
  /** String: the rule the stored stories were built with (STORY_RULE_VERSION). */
  rule: string;
}

export interface RedisKeys {
  /** PHOTOWIRE_PREFIX as given. */
  prefix: string;
  /** The prefix of every BullMQ queue, worker and flow producer: `{<p>}` (BullMQ's docs for cluster). */
  queuePrefix: string;
  /** String: the key layout version of this prefix's data (keyLayout.ts). */
  layout: string;
  batch(batchId: string): BatchKeys;
  /** String with TTL: one retry of one failure (item + time it failed), in the batch's slot. */
  retryClaim(batchId: string, itemId: string, failedAt: string): string;
  /** Zset: batch ids by creation (ms). */
  batches: string;
  /** Zset: archived batch ids (removed from Redis by retention, export in storage) by creation (ms); same slot as `batches`. */
  archived: string;
  /** Hash: archived batch id -> its small summary JSON (src/app/retention/retentionPass.ts ArchivedEntry). */
  archivedSummaries: string;
  /** Hash: the retention pass's cursor (batch being removed, last step done). */
  retentionCursor: string;
  /** String: the retention pass's lease (one pass at a time across processes), beside its cursor. */
  retentionLock: string;
  kill: KillKeys;
  photo: PhotoKeys;
  runs: RunKeys;
  sources: SourceKeys;
  schedule(name: string): ScheduleKeys;
  /** String with TTL: the lease of one hot-folder file (sha256 of its path). */
  claim(fileSha256: string): string;
  /** Hash with TTL: entry name -> since when (ms) it has waited for its pair, in one hot folder (sha256 of its path). */
  pairWaits(dirSha256: string): string;
  /** String with TTL: the hot folder (sha256 of its path) has received a delivery whose XML names pictures. */
  deliveryFolder(dirSha256: string): string;
  /** Hash: item id -> what decides whether the rendition set of these bytes may be cached and served (src/adapters/redis/renditionOwners.ts). */
  renditionOwners(sha256: string): string;
  dedup: DedupKeys;
  clusters: ClusterIndexKeys;
  story: StoryKeys;
}

/**
 * SCAN's MATCH pattern for every key that starts with `start` (a key prefix from this file: a
 * batch's tag, the cluster index's base): glob characters in it matched literally.
 */
export function keysStartingWith(start: string): string {
  return `${start.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

/** `{inner}`: a Redis Cluster hash tag. The inner text must not hold braces itself. */
export function hashTag(inner: string): string {
  if (/[{}]/.test(inner)) throw new RangeError(`a hash tag cannot contain braces: ${inner}`);
  return `{${inner}}`;
}

/** The hash tag a key's slot is computed from (Redis's rule: the first `{...}` with something inside), or null. */
export function hashTagOf(key: string): string | null {
  const open = key.indexOf('{');
  if (open < 0) return null;
  const close = key.indexOf('}', open + 1);
  if (close <= open + 1) return null;
  return key.slice(open + 1, close);
}

/** The registry of one prefix (PHOTOWIRE_PREFIX: letters, digits, dot, dash, underscore). */
export function redisKeys(prefix: string): RedisKeys {
  if (!prefix || /[{}:\s]/.test(prefix))
    throw new RangeError(`a key prefix must be non-empty, without braces, colons or spaces: ${JSON.stringify(prefix)}`);
  const p = prefix;
  const kill = hashTag(`${p}:kill`);
  const photo = hashTag(`${p}:photo`);
  const runs = hashTag(`${p}:runs`);
  const sources = hashTag(`${p}:sources`);
  const story = hashTag(`${p}:story`);
  const batch = (batchId: string): BatchKeys => {
    const tag = hashTag(`${p}:batch:${batchId}`);
    return {
      tag,
      ledger: tag,
      items: `${tag}:items`,
      records: `${tag}:records`,
      errors: `${tag}:errors`,
      facets: `${tag}:facets`,
      stats: `${tag}:stats`,
      clusters: `${tag}:clusters`,
      captions: `${tag}:captions`,
      moved: `${tag}:moved`,
      index: (name) => `${tag}:ix:${name}`,
      intersection: (digest) => `${tag}:ix~and:${digest}`,
    };
  };
  return {
    prefix: p,
    queuePrefix: hashTag(p),
    layout: `${hashTag(p)}:layout`,
    batch,
    retryClaim: (batchId, itemId, failedAt) => `${batch(batchId).tag}:retry:${itemId}:${failedAt}`,
    batches: `${hashTag(`${p}:catalog`)}:batches`,
    archived: `${hashTag(`${p}:catalog`)}:archived`,
    archivedSummaries: `${hashTag(`${p}:catalog`)}:archived:summary`,
    retentionCursor: `${hashTag(`${p}:catalog`)}:retention`,
    retentionLock: `${hashTag(`${p}:catalog`)}:retention:lock`,
    kill: {
      items: `${kill}:items`,
      groups: `${kill}:groups`,
      members: `${kill}:members`,
      status: `${kill}:status`,
      killed: `${kill}:killed`,
      events: `${kill}:events`,
      log: `${kill}:log`,
      corrected: `${kill}:corrected`,
      reached: `${kill}:reached`,
      review: `${kill}:review`,
      marked: `${kill}:marked`,
      bare: `${kill}:bare`,
      audit: `${kill}:audit`,
      applying: `${kill}:applying`,
      lifted: `${kill}:lifted`,
    },
    photo: {
      byPixels: (sha) => `${photo}:pixels:${sha}`,
      byRef: (ref) => `${photo}:ref:${ref}`,
      items: `${photo}:items`,
      versions: (id) => `${photo}:${id}:versions`,
      firstItems: (id) => `${photo}:${id}:items`,
    },
    runs: {
      all: runs,
      bySchedule: (s) => `${runs}:by:${s}`,
      run: (id) => `${runs}:run:${id}`,
    },
    sources: {
      all: sources,
      source: (kind, name) => `${sources}:${kind}:${name}`,
    },
    schedule: (name) => {
      const tag = hashTag(`${p}:schedule:${name}`);
      return { cursor: `${tag}:cursor`, pending: `${tag}:pending`, lock: `${tag}:lock` };
    },
    claim: (sha) => hashTag(`${p}:claim:${sha}`),
    pairWaits: (sha) => `${hashTag(`${p}:pair:${sha}`)}:since`,
    deliveryFolder: (sha) => `${hashTag(`${p}:pair:${sha}`)}:delivery`,
    renditionOwners: (sha) => hashTag(`${p}:rend:${sha}`),
    dedup: dedupKeys(p),
    clusters: clusterIndexKeys(p),
    story: {
      items: `${story}:items`,
      parent: `${story}:parent`,
      sizes: `${story}:sizes`,
      members: (id) => `${story}:m:${id}`,
      bucket: (band) => `${story}:b:${band}`,
      seq: `${story}:seq`,
      rule: `${story}:rule`,
    },
  };
}

/** SCAN patterns that together match every key of a prefix, layout 1 and 2: `<p>:*`, `{<p>:*`, `{<p>}:*`. */
export function prefixPatterns(prefix: string): string[] {
  return [`${prefix}:*`, `{${prefix}:*`, `{${prefix}}:*`];
}
