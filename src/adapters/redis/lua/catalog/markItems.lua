--[[
  catalog/markItem for the records of a chunk of caption-only items, all or none: the same keys,
  and one sextuple of markItem's ARGV per record. Every index a record of the chunk (or one stored
  before at its place) is in is named, or nothing is written ({'need', name...}). A chunk run again
  (a retry, a worker killed after this step) rewrites its records in place: counted once, as
  markItem does for one item.
  KEYS as catalog/markItem's: KEYS[1..8], then the index sorted sets named by ARGV[1].
  ARGV[1] JSON list of the index names of KEYS[9..]; then per record: itemId, ok|failed, batch
  index, record JSON, failure JSON ('' when ok), facets JSON.
  Returns how many records were new (had no state before), or {'need', name...}.
]]
--- @include "includes/markOne"
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
