--[[
  Replace records whose stored text is unchanged, all or none, moving their counters and indexes
  (includes/recordFacets). A record replaced by itself (same text) only gets its facets: how a batch
  stored before the facets existed is indexed (CatalogStore.ensureIndexed).
  KEYS[1] records hash (index -> JSON), KEYS[2] facets, KEYS[3] stats, KEYS[4] members per cluster,
  KEYS[5] records per caption digest, KEYS[6..] index sorted sets named by ARGV[1].
  ARGV[1] JSON list of the index names of KEYS[6..]; then quadruples: index, JSON expected now, new
  JSON, new facets JSON.
  Returns 1 when replaced, 0 when one of them had changed, {'need', name...} when a stored record's
  facets name an index not passed (nothing written either way).
]]
--- @include "includes/recordFacets"
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
