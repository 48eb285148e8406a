/**
 * The whole dedup decision for one caption (layout v2, issue 12), as one Lua script so that it is
 * atomic across every worker on every machine: look up the item (idempotent retry), the
 * exact-duplicate cluster, the LSH band buckets, verify candidates with captionSimilarity() on the
 * stored shingles (canonical caption's and the members' extra ones), then join the best cluster at
 * or above the threshold or create a new one. Kept as a TypeScript string so it ships inside dist/.
 *
 * One call decides a batch of captions, in the order given (captionIndex.ts queues the assigns of
 * one tick, at most `batchSize` per call, and assignMany's items in chunks): the same decisions
 * as one call per caption in that order, for fewer EVALSHAs (each caption's own step, assignOne(),
 * is the per-caption script it was until 2026-12-02). The keys the adapter can name are in KEYS;
 * the candidate clusters (and a caption's own exact-id cluster) are only known once the buckets
 * are read, so the script derives their c:/m: keys from the key base (ARGV[8]). Redis
 * Cluster-correct because every key of an index is in one hash slot: the base carries a hash tag
 * (`<prefix>:{v2t0.5}:`, indexBase()), so a script touching them all runs on the one node holding
 * that slot.
 *
 * KEYS[1]   sizes (zset: the clusters of 2+ members, added with score 2 when a cluster gets its
 *           second member and not touched by later joins: a ZADD into a zset of every multi-member
 *           cluster on each join was ~5% of the script's time at 1M; indexes written before
 *           2026-12-03 hold the size at the last join. Read as "which clusters have members".)
 * then, per caption in ARGV's order, nb + 2 keys:
 *   membership shard (hash: itemId -> "clusterId|exact|similarity"),
 *   nb band buckets (hash: 6-byte band field -> concatenated 8-byte cluster ids),
 *   a:<exact id> (string): the cluster the first caption with these exact words joined when it
 *   joined one it was not the canonical of, so that the same words sent again land in the same
 *   cluster whatever was indexed in between
 * ARGV[1]   number of captions
 * ARGV[2]   threshold
 * ARGV[3]   most candidates verified per caption; ARGV[4] most cluster ids kept per bucket
 * ARGV[5]   containment discount; ARGV[6] min shingles for containment; ARGV[7] max extra shingles
 * ARGV[8]   key base (`<prefix>:{v2t<threshold>}:`), from which cluster keys are derived
 * ARGV[9]   now, seconds since the epoch rounded down to the hour (lastSeenNow()): the clusters' last-seen time (retention)
 * then, per caption, 7 values:
 *   itemId; nb, number of bands (MinHash bands, then anchors);
 *   shingle hashes, 4 bytes each, little-endian, sorted as uint32, unique;
 *   cleaned caption (stored for canonical captions only);
 *   band fields, 6 bytes each, in its bucket keys' order;
 *   its exact id and fallback id, 16 hex digits each;
 *   band locations, 3 bytes each in its bucket keys' order: band number (u8), bucket shard (u16
 *   big-endian), what a trail entry names a bucket key by
 *
 * Last seen (issue 14 retention): every caption that creates or joins a cluster sets the cluster's
 * score to now in its last-seen shard `s:<shard>` (zset: cluster id -> seconds, 2^13 shards by the
 * id's first 13 bits, seenShard(); small, so listpack-encoded), derived from the base like the
 * candidates' keys. Trail `t:<id>` (string, appended): what a cluster's non-canonical members
 * added outside the canonical caption's own bands, so that expiry can remove all of it: 'b' | u8
 * band | u16 shard | 6-byte field for a bucket the cluster id was added to on a join, 'a' | 16 hex
 * for an alias a:<that id> set to this cluster. The canonical caption's own buckets are not in the
 * trail: expiry computes them from the stored caption (captionIndex.ts expireIdle()).
 *
 * Cluster key c:<id> (string): u32 n (big-endian) | n x 4-byte shingles | u16 m | m x 4-byte extra
 * shingles (the members', not in the canonical's, first come first kept) | u16 len | canonical
 * item id | caption. Similarity is sent as a string ('%.17g'): Lua numbers in replies are
 * truncated to integers.
 * Reply: one entry per caption, in order: { clusterId, canonicalId, similarity, exact (0|1),
 * 'created'|'joined'|'known' [, canonical caption when not exact: the adapter diffs against it] },
 * or { '!', message } for a caption that could not be placed (both its ids taken by other
 * captions; the rest of the batch goes on).
 * The rule mirrors captionSimilarity() (src/core/dedup/similarity.ts) and ReferenceClusterer.
 */
export const ASSIGN_CAPTION_LUA = `
-- Pure helpers, defined once per script call rather than once per caption.
local function parse(v)
  local n = struct.unpack('>I4', v, 1)
  local p = 5 + 4 * n
  local m = struct.unpack('>I2', v, p)
  local q = p + 2 + 4 * m
  local len = struct.unpack('>I2', v, q)
  return n, p, m, q, len
end
local function canonicalOf(v)
  local _, _, _, q, len = parse(v)
  return string.sub(v, q + 2, q + 1 + len)
end
local function captionOf(v)
  local _, _, _, q, len = parse(v)
  return string.sub(v, q + 2 + len)
end
local function fmt(s) return string.format('%.17g', s) end
local function raw8(id)
  return (string.gsub(id, '%x%x', function(h) return string.char(tonumber(h, 16)) end))
end
local function tohex(raw)
  return string.format('%02x%02x%02x%02x%02x%02x%02x%02x', string.byte(raw, 1, 8))
end
-- Whether the 8-byte id raw is one of the entries of cur (a plain find, at an entry boundary).
local function holds(cur, raw)
  local from = 1
  while true do
    local at = string.find(cur, raw, from, true)
    if not at then return false end
    if (at - 1) % 8 == 0 then return true end
    from = at + 1
  end
end

local function assignOne(K, A)
  local item = A[1]
  local nb = tonumber(A[2])
  local threshold = tonumber(A[3])
  local sh = A[4]
  local nNew = #sh / 4
  local discount = tonumber(A[9])
  local minContained = tonumber(A[10])
  local maxExtra = tonumber(A[11])

  local declared = A[12]
  local exactId, altId = string.sub(declared, 1, 16), string.sub(declared, 17, 32)
  local base = A[13]
  -- A cluster's keys, derived from the base (same hash slot).
  local function ck(x) return base .. 'c:' .. x end
  local function mk(x) return base .. 'm:' .. x end
  local aliasKey = K[#K]
  local now = tonumber(A[14])
  local locs = A[15]
  -- The last-seen shard of a cluster id: its first 13 bits (captionIndex.ts seenShard()).
  local function seenKey(x) return base .. 's:' .. string.format('%x', math.floor(tonumber(string.sub(x, 1, 4), 16) / 8)) end


  local prev = redis.call('HGET', K[1], item)
  if prev then
    local cid, e, sim = string.match(prev, '^(%x+)|(%d)|(.+)$')
    local v = redis.call('GET', ck(cid))
    -- A membership naming a missing cluster is one whose cluster expired (its members are being
    -- drained, captionIndex.ts expireIdle()): the item is assigned anew below.
    if v then
      if e == '1' then return { cid, canonicalOf(v), sim, 1, 'known' } end
      return { cid, canonicalOf(v), sim, 0, 'known', captionOf(v) }
    end
  end

  -- The caption's shingles as 4-byte strings, in order (made once per caption, on first use).
  local list = nil

  -- captionSimilarity(): max(J, containment - discount), in the same order of operations as the TS.
  -- Each of the caption's shingles is looked up in the cluster's shingle region (canonical, then
  -- extra) with a plain string.find: C code, no Lua string made per stored shingle (measured: the
  -- verification was half the script's time when it made one per stored shingle, docs/DEDUP.md).
  -- With need (the threshold), it gives up (-1) once so many of the caption's shingles are missing
  -- that no branch of the measure can reach need; the bound (least, less 1 for rounding) is one no
  -- exact score under it could pass, so the decisions are those of the full computation.
  -- Also returns whether the two sets are equal and the caption's shingles the cluster lacks, in
  -- the caption's order (what a join adds to the cluster's extra shingles).
  local function score(v, need)
    if not list then
      list = {}
      for i = 1, #sh, 4 do list[#list + 1] = string.sub(sh, i, i + 3) end
    end
    local n, p, m, q = parse(v)
    -- region: n canonical shingles at 1 + 4i, the u16 m at 4n + 1, m extra shingles from 4n + 3.
    local region = string.sub(v, 5, q - 1)
    local kEnd, eStart = 4 * n, 4 * n + 3
    local limit = -1
    if need then
      local least = need * (n + nNew) / (1 + need)
      if n >= minContained and nNew >= minContained then
        least = math.min(least, (need + discount) * nNew, (need + discount) * n)
      end
      limit = math.floor(least) - 1
    end
    local inter, interAll, missing = 0, 0, {}
    for i = 1, nNew do
      local s = list[i]
      local from, hit = 1, 0
      while true do
        local at = string.find(region, s, from, true)
        if not at then break end
        if at <= kEnd then
          if (at - 1) % 4 == 0 then hit = 1; break end
        elseif at >= eStart and (at - eStart) % 4 == 0 then
          hit = 2; break
        end
        from = at + 1
      end
      if hit == 1 then
        inter = inter + 1; interAll = interAll + 1
      elseif hit == 2 then
        interAll = interAll + 1
      else
        missing[#missing + 1] = s
        if interAll + nNew - i < limit then return -1, false, nil end
      end
    end
    local union = n + nNew - inter
    local j = 0
    if union ~= 0 then j = inter / union end
    if n < minContained or nNew < minContained then return j, inter == n and n == nNew, missing end
    local c = math.max(interAll / nNew, inter / n) - discount
    if c > j then return c, false, missing end
    return j, inter == n and n == nNew, missing
  end


  local fields = A[8]
  local buckets = {}
  local hits, order = {}, {}
  for b = 1, nb do
    local cur = redis.call('HGET', K[2 + b], string.sub(fields, (b - 1) * 6 + 1, b * 6))
    buckets[b] = cur
    if cur then
      for i = 1, #cur, 8 do
        local raw = string.sub(cur, i, i + 7)
        local h = hits[raw]
        if h then hits[raw] = h + 1 else hits[raw] = 1; order[#order + 1] = raw end
      end
    end
  end
  -- Most band hits first: hits estimate similarity, so a cap on verification drops the least likely
  -- (ties: smaller id first). Sorted only past the cap, on keys (255 - hits, raw id) with Lua's own
  -- string order (bytes compare as the hex ids do), and only the ids kept are turned into hex.
  local maxCand = tonumber(A[6])
  if #order > maxCand then
    local keyed = {}
    for i, raw in ipairs(order) do keyed[i] = string.char(255 - hits[raw]) .. raw end
    table.sort(keyed)
    for i = 1, maxCand do order[i] = string.sub(keyed[i], 2) end
    for i = #order, maxCand + 1, -1 do order[i] = nil end
  end
  local cands = {}
  -- The 8 raw bytes of each candidate, for addToBuckets after a join (no hex decoding in Lua).
  local rawOf = {}
  for i = 1, #order do
    local cid = tohex(order[i])
    if cid ~= exactId then cands[#cands + 1] = cid; rawOf[cid] = order[i] end
  end

  -- One MGET for the alias, this caption's own exact-id cluster and every candidate (one call
  -- instead of 2 + candidates: each redis.call() has a fixed cost of its own).
  local wanted = { aliasKey, ck(exactId) }
  for i, cid in ipairs(cands) do wanted[2 + i] = ck(cid) end
  local got = redis.call('MGET', unpack(wanted))
  local exactV = got[2]
  local bestId, bestV, bestSim, bestMissing = nil, nil, -1, nil
  local function consider(cid, v)
    local s, _, missing = score(v, threshold)
    if s < threshold then return end
    if bestId and (s < bestSim or (s == bestSim and cid > bestId)) then return end
    bestId, bestV, bestSim, bestMissing = cid, v, s, missing
  end


  -- Add the cluster id to this caption's buckets; trail: the entries added (a join, not a create:
  -- a canonical caption's own buckets are computed again from its caption on expiry).
  local function addToBuckets(id, trail)
    local raw = rawOf[id] or raw8(id)
    local cap = tonumber(A[7]) * 8
    for b = 1, nb do
      local cur = buckets[b]
      local field = string.sub(fields, (b - 1) * 6 + 1, b * 6)
      local added = true
      if cur then
        if not holds(cur, raw) then
          if #cur >= cap then cur = string.sub(cur, #cur - cap + 9) end
          redis.call('HSET', K[2 + b], field, cur .. raw)
        else
          added = false
        end
      else
        redis.call('HSET', K[2 + b], field, raw)
      end
      if added and trail then trail[#trail + 1] = 'b' .. string.sub(locs, (b - 1) * 3 + 1, b * 3) .. field end
    end
  end

  -- missing: the caption's shingles the cluster lacks, in order (from score()).
  local function join(cid, v, sim, e, missing)
    if redis.call('RPUSH', mk(cid), item) == 1 then redis.call('ZADD', K[2], 2, cid) end
    redis.call('HSET', K[1], item, cid .. '|' .. e .. '|' .. fmt(sim))
    redis.call('ZADD', seenKey(cid), now, cid)
    if e == 1 then return { cid, canonicalOf(v), fmt(sim), 1, 'joined' } end
    -- Remember the shingles this member adds (a later cut or edit of it is contained in the cluster).
    local n, p, m, q = parse(v)
    if m < maxExtra and #missing > 0 then
      local add = {}
      for i = 1, math.min(#missing, maxExtra - m) do add[i] = missing[i] end
      redis.call('SET', ck(cid), string.sub(v, 1, p - 1) .. struct.pack('>I2', m + #add) .. string.sub(v, p + 2, q - 1) .. table.concat(add) .. string.sub(v, q))
    end
    local trail = {}
    if sim < 1 then addToBuckets(cid, trail) end
    -- The same words again join this cluster directly (not whichever is best by then).
    if cid ~= exactId and redis.call('SET', aliasKey, cid, 'NX') then trail[#trail + 1] = 'a' .. exactId end
    if #trail > 0 then redis.call('APPEND', base .. 't:' .. cid, table.concat(trail)) end
    return { cid, canonicalOf(v), fmt(sim), 0, 'joined', captionOf(v) }
  end

  -- These exact words joined a cluster before: join it again.
  local alias = got[1]
  if alias then
    local av = redis.call('GET', ck(alias))
    if av then
      local s, _, missing = score(av)
      return join(alias, av, s, 0, missing)
    end
  end

  if exactV then
    local s, same = score(exactV)
    if same then
      -- Same shingle set as the caption it is named after: an exact duplicate.
      local n = struct.unpack('>I4', exactV, 1)
      if n == nNew then return join(exactId, exactV, 1, 1, nil) end
    end
    consider(exactId, exactV)
  end
  for i, cid in ipairs(cands) do
    local v = got[2 + i]
    if v then consider(cid, v) end
  end
  if bestId then return join(bestId, bestV, bestSim, 0, bestMissing) end

  local id = exactId
  if exactV then
    id = altId
    if redis.call('EXISTS', ck(id)) == 1 then
      return redis.error_reply('ERR photowire dedup: cluster ids ' .. exactId .. ' and ' .. id .. ' both taken by other captions')
    end
  end
  redis.call('SET', ck(id), struct.pack('>I4', nNew) .. sh .. struct.pack('>I2', 0) .. struct.pack('>I2', #item) .. item .. A[5])
  addToBuckets(id, nil)
  redis.call('HSET', K[1], item, id .. '|1|1')
  redis.call('ZADD', seenKey(id), now, id)
  return { id, item, '1', 1, 'created' }
end

local n = tonumber(ARGV[1])
local sizes = KEYS[1]
local out = {}
local k, a = 2, 10
for c = 1, n do
  local nb = tonumber(ARGV[a + 1])
  local K = { KEYS[k], sizes }
  for b = 1, nb do K[2 + b] = KEYS[k + b] end
  K[3 + nb] = KEYS[k + nb + 1]
  k = k + nb + 2
  local A = { ARGV[a], ARGV[a + 1], ARGV[2], ARGV[a + 2], ARGV[a + 3], ARGV[3], ARGV[4], ARGV[a + 4], ARGV[5], ARGV[6], ARGV[7], ARGV[a + 5], ARGV[8], ARGV[9], ARGV[a + 6] }
  a = a + 7
  local r = assignOne(K, A)
  if r.err then r = { '!', r.err } end
  out[c] = r
end
return out
`;

/**
 * Expiry of one cluster not seen within the retention window (issue 14: PHOTOWIRE_DEDUP_RETENTION_DAYS),
 * atomic, called by CaptionIndex.expireIdle() for each cluster it found idle in a last-seen shard.
 * The keys to clean are computed by the adapter (the canonical caption's own bands from its stored
 * caption, the rest from the trail t:X, the members' item shards) and all passed in KEYS, in the
 * index's hash slot. Bounded: at most the trail entries and members the adapter passes (it passes
 * at most 256 trail entries and 500 members per call). It first checks that X is still idle
 * (a caption that joined it since the adapter looked made it recent again: 'kept').
 *
 * KEYS[1]   last-seen shard of X (zset s:<shard>)
 * KEYS[2]   c:X   KEYS[3] m:X   KEYS[4] t:X   KEYS[5] sizes (zset)
 * KEYS[6]   d:X   (list: members of an expired X still to be drained of their membership)
 * KEYS[7]   draining (set: cluster ids with a d:X)
 * KEYS[8 .. 7+nb]            band bucket hashes, one per (key, field) to clean, fields in ARGV[5]
 * KEYS[8+nb .. 7+nb+na]      alias keys a:<id> the trail names (deleted only if they name X)
 * KEYS[8+nb+na ..]           item shard hashes, one per item in ARGV[9..] (membership removed
 *                            only if it names X)
 * ARGV[1]   X (16 hex)        ARGV[2] cutoff, seconds: idle means last seen before it
 * ARGV[3]   nb                ARGV[4] na
 * ARGV[5]   bucket fields, 6 bytes each, in KEYS' order
 * ARGV[6]   X as 8 raw bytes (how buckets hold it)
 * ARGV[7]   bytes of the trail the adapter read and passes (its first entries): when the trail is
 *           longer, this call cleans what was passed, cuts it off the trail and replies 'partial'
 *           (X is left in place, still idle; the adapter calls again)
 * ARGV[8]   members passed (the first of m:X, after the canonical item, which is ARGV[9])
 * ARGV[9..] item ids: the canonical item, then the members passed
 * Reply: { 'gone' | 'kept' | 'busy' | 'partial' | 'removed', bucket entries removed, aliases removed,
 *          memberships removed, members left to drain }
 * After 'removed' X has no c:, m:, t:, sizes or last-seen entry, no bucket or alias names it, and
 * when it had more members than passed the rest are in d:X (KEYS[6]) for EXPIRE_DRAIN_LUA; until
 * then their memberships name a missing cluster, which the assign script treats as unassigned.
 */
export const EXPIRE_CLUSTER_LUA = `
local x = ARGV[1]
local cutoff = tonumber(ARGV[2])
local nb = tonumber(ARGV[3])
local na = tonumber(ARGV[4])
local fields = ARGV[5]
local raw = ARGV[6]
local trailBytes = tonumber(ARGV[7])
local passed = tonumber(ARGV[8])

local score = redis.call('ZSCORE', KEYS[1], x)
-- Gone already (another pass), or seen since the adapter looked.
if not score then return { 'gone', 0, 0, 0, 0 } end
if tonumber(score) >= cutoff then return { 'kept', 0, 0, 0, 0 } end
if redis.call('EXISTS', KEYS[6]) == 1 then return { 'busy', 0, 0, 0, 0 } end
local partial = redis.call('STRLEN', KEYS[4]) > trailBytes

-- Every 8-byte entry of a bucket that is raw, at an entry boundary, removed.
local removedEntries = 0
for b = 1, nb do
  local key = KEYS[7 + b]
  local field = string.sub(fields, (b - 1) * 6 + 1, b * 6)
  local cur = redis.call('HGET', key, field)
  if cur then
    local out, from, changed = {}, 1, false
    for i = 1, #cur, 8 do
      local e = string.sub(cur, i, i + 7)
      if e == raw then changed = true; removedEntries = removedEntries + 1 else out[#out + 1] = e end
    end
    if changed then
      if #out == 0 then redis.call('HDEL', key, field) else redis.call('HSET', key, field, table.concat(out)) end
    end
  end
end
local removedAliases = 0
for a = 1, na do
  local key = KEYS[7 + nb + a]
  if redis.call('GET', key) == x then redis.call('DEL', key); removedAliases = removedAliases + 1 end
end
if partial then
  local t = redis.call('GET', KEYS[4])
  redis.call('SET', KEYS[4], string.sub(t, trailBytes + 1))
  return { 'partial', removedEntries, removedAliases, 0, 0 }
end

local removedItems = 0
local prefix = x .. '|'
for i = 9, #ARGV do
  local key = KEYS[7 + nb + na + (i - 8)]
  local v = redis.call('HGET', key, ARGV[i])
  if v and string.sub(v, 1, 17) == prefix then redis.call('HDEL', key, ARGV[i]); removedItems = removedItems + 1 end
end
redis.call('ZREM', KEYS[1], x)
redis.call('ZREM', KEYS[5], x)
redis.call('DEL', KEYS[2], KEYS[4])
local left = redis.call('LLEN', KEYS[3]) - passed
if left > 0 then
  redis.call('LTRIM', KEYS[3], passed, -1)
  redis.call('RENAME', KEYS[3], KEYS[6])
  redis.call('SADD', KEYS[7], x)
else
  redis.call('DEL', KEYS[3])
  left = 0
end
return { 'removed', removedEntries, removedAliases, removedItems, left }
`;

/**
 * Drain of an expired cluster's remaining members (after EXPIRE_CLUSTER_LUA moved them to d:X):
 * their memberships are removed (only where they still name X), a chunk per call.
 *
 * KEYS[1]   d:X   KEYS[2] draining (set)   KEYS[3..] item shard hashes, one per item in ARGV[2..]
 * ARGV[1]   X     ARGV[2..] the first items of d:X, as the adapter read them (LRANGE 0 n-1)
 * Reply: { memberships removed, members left }
 */
export const EXPIRE_DRAIN_LUA = `
local x = ARGV[1]
local prefix = x .. '|'
local removed = 0
for i = 2, #ARGV do
  local key = KEYS[i + 1]
  local v = redis.call('HGET', key, ARGV[i])
  if v and string.sub(v, 1, 17) == prefix then redis.call('HDEL', key, ARGV[i]); removed = removed + 1 end
end
redis.call('LTRIM', KEYS[1], #ARGV - 1, -1)
local left = redis.call('LLEN', KEYS[1])
if left == 0 then redis.call('SREM', KEYS[2], x) end
return { removed, left }
`;
