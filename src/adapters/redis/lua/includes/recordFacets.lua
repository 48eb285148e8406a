--[[
  Shared by the steps that store a record (catalog/markItem, markItems, replaceRecords): a
  record's facets (src/core/records/recordFacets.ts: the counters and indexes it adds to) are kept
  beside it in the facets hash, so a record replaced (a retry, a re-run, the finalize's clusters, a
  correction) takes back exactly what it had added before adding its new ones: nothing is counted
  twice.
  Every index key a step touches is passed in KEYS, named in a JSON list in ARGV (the same order).
  A record stored earlier may belong to an index the caller did not name (it cannot know the stored
  facets): the step then writes nothing and replies {'need', name...}; the caller names them too and
  calls again.
  KEYS, ARGV: none of its own; indexMap(first, names) maps the names to KEYS[first..].
]]
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
    -- Only what differs moves (a record patched with its cluster keeps its other
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
