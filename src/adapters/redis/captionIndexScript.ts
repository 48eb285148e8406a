/**
 * The whole dedup decision for one caption, as one Lua script so that it is atomic across every
 * worker on every machine: look up the item (idempotent retry), the exact-duplicate cluster, the
 * LSH band buckets, verify candidates against the canonical captions' stored shingle sets, then
 * join the best cluster at or above the threshold or create a new one. Kept as a TypeScript string
 * so it ships inside dist/ with no file to locate at run time.
 *
 * Every redis.call costs ~2 us inside a script, which is most of the script's time: the layout is
 * chosen to keep them few (a new caption: 2 reads + 1 per band, 2 writes + 1 per band).
 *
 * KEYS[1]   membership shard (hash: itemId -> "clusterId|exact|inter|union")
 * KEYS[2]   sizes (zset: clusterId -> size, clusters of 2+ members only)
 * ARGV[1]   key base ("<prefix>:v1:"): cluster c:<id>, members m:<id>, band buckets b<band>:<shard>
 * ARGV[2]   itemId
 * ARGV[3]   cluster id this caption would start (16 hex); ARGV[4] its fallback
 * ARGV[5]   threshold
 * ARGV[6]   shingle hashes, 4 bytes each, little-endian, unique (compared as 4-byte strings)
 * ARGV[7]   cleaned caption (stored for canonical captions only)
 * ARGV[8]   most candidates verified per caption; ARGV[9] most cluster ids kept per bucket
 * ARGV[10]  bands, 8 bytes each: u16 shard (big-endian) + 6-byte field
 *
 * Cluster key c:<id> (string): u32 n (big-endian) | n x 4-byte shingles | u16 len | canonical
 * item id | caption. Bucket field value: concatenated raw 8-byte cluster ids, oldest first.
 * Reply: { clusterId, canonicalId, inter, union, exact (0|1), 'created'|'joined'|'known'
 * [, canonical caption when joined or known and not exact: the adapter diffs against it] }.
 * The join rule mirrors pickCluster() in src/core/dedup/referenceClusterer.ts.
 */
export const ASSIGN_CAPTION_LUA = `
local base = ARGV[1]
local item = ARGV[2]

local function canonicalOf(v)
  local n = struct.unpack('>I4', v, 1)
  local p = 5 + 4 * n
  local len = struct.unpack('>I2', v, p)
  return string.sub(v, p + 2, p + 1 + len)
end

local function captionOf(v)
  local n = struct.unpack('>I4', v, 1)
  local p = 5 + 4 * n
  local len = struct.unpack('>I2', v, p)
  return string.sub(v, p + 2 + len)
end

local prev = redis.call('HGET', KEYS[1], item)
if prev then
  local cid, e, inter, union = string.match(prev, '^(%x+)|(%d)|(%d+)|(%d+)$')
  local v = redis.call('GET', base .. 'c:' .. cid)
  if not v then return redis.error_reply('ERR photowire dedup: item ' .. item .. ' points at missing cluster ' .. cid) end
  if e == '1' then return { cid, canonicalOf(v), tonumber(inter), tonumber(union), 1, 'known' } end
  return { cid, canonicalOf(v), tonumber(inter), tonumber(union), 0, 'known', captionOf(v) }
end

local sh = ARGV[6]
local nNew = #sh / 4
local threshold = tonumber(ARGV[5])
local newset = nil
local function score(v)
  if not newset then
    newset = {}
    for i = 1, #sh, 4 do newset[string.sub(sh, i, i + 3)] = true end
  end
  local n = struct.unpack('>I4', v, 1)
  local inter = 0
  for i = 5, 4 * n + 1, 4 do
    if newset[string.sub(v, i, i + 3)] then inter = inter + 1 end
  end
  return inter, n + nNew - inter
end

local function join(cid, v, inter, union, e)
  local len = redis.call('RPUSH', base .. 'm:' .. cid, item)
  redis.call('ZADD', KEYS[2], len + 1, cid)
  redis.call('HSET', KEYS[1], item, cid .. '|' .. e .. '|' .. inter .. '|' .. union)
  if e == 1 then return { cid, canonicalOf(v), inter, union, e, 'joined' } end
  return { cid, canonicalOf(v), inter, union, e, 'joined', captionOf(v) }
end

local exactId = ARGV[3]
local exactV = redis.call('GET', base .. 'c:' .. exactId)
local exactInter, exactUnion = 0, 0
if exactV then
  exactInter, exactUnion = score(exactV)
  if exactInter == exactUnion then return join(exactId, exactV, exactInter, exactUnion, 1) end
end

local function tohex(raw)
  return string.format('%02x%02x%02x%02x%02x%02x%02x%02x', string.byte(raw, 1, 8))
end

local bands = ARGV[10]
local nb = #bands / 8
local bucketKeys, fields, buckets = {}, {}, {}
local hits, order = {}, {}
for b = 1, nb do
  local o = (b - 1) * 8
  local shard = struct.unpack('>I2', bands, o + 1)
  bucketKeys[b] = base .. 'b' .. (b - 1) .. ':' .. string.format('%x', shard)
  fields[b] = string.sub(bands, o + 3, o + 8)
  local cur = redis.call('HGET', bucketKeys[b], fields[b])
  buckets[b] = cur
  if cur then
    for i = 1, #cur, 8 do
      local raw = string.sub(cur, i, i + 7)
      local h = hits[raw]
      if h then hits[raw] = h + 1 else hits[raw] = 1; order[#order + 1] = raw end
    end
  end
end

-- Most band hits first: hits estimate similarity, so a cap on verification drops the least likely.
local maxCand = tonumber(ARGV[8])
if #order > maxCand then
  local hexOf = {}
  for _, raw in ipairs(order) do hexOf[raw] = tohex(raw) end
  table.sort(order, function(x, y)
    if hits[x] ~= hits[y] then return hits[x] > hits[y] end
    return hexOf[x] < hexOf[y]
  end)
end

local bestId, bestV, bestInter, bestUnion = nil, nil, 0, 1
local function consider(cid, v, inter, union)
  if inter / union < threshold then return end
  if bestId then
    local a, b = inter / union, bestInter / bestUnion
    if a < b or (a == b and cid > bestId) then return end
  end
  bestId, bestV, bestInter, bestUnion = cid, v, inter, union
end
if exactV then consider(exactId, exactV, exactInter, exactUnion) end
for i = 1, math.min(#order, maxCand) do
  local cid = tohex(order[i])
  if cid ~= exactId then
    local v = redis.call('GET', base .. 'c:' .. cid)
    if v then
      local inter, union = score(v)
      consider(cid, v, inter, union)
    end
  end
end
if bestId then return join(bestId, bestV, bestInter, bestUnion, 0) end

local id = exactId
if exactV then
  id = ARGV[4]
  if redis.call('EXISTS', base .. 'c:' .. id) == 1 then
    return redis.error_reply('ERR photowire dedup: cluster ids ' .. exactId .. ' and ' .. id .. ' both taken by other captions')
  end
end
redis.call('SET', base .. 'c:' .. id, struct.pack('>I4', nNew) .. sh .. struct.pack('>I2', #item) .. item .. ARGV[7])
local raw = string.gsub(id, '%x%x', function(h) return string.char(tonumber(h, 16)) end)
local cap = tonumber(ARGV[9]) * 8
for b = 1, nb do
  local cur = buckets[b]
  if cur then
    if #cur >= cap then cur = string.sub(cur, #cur - cap + 9) end
    redis.call('HSET', bucketKeys[b], fields[b], cur .. raw)
  else
    redis.call('HSET', bucketKeys[b], fields[b], raw)
  end
end
redis.call('HSET', KEYS[1], item, id .. '|1|' .. nNew .. '|' .. nNew)
return { id, item, nNew, nNew, 1, 'created' }
`;
