--[[
  Append a warning to a ledger's JSON list unless it is already there.
  KEYS[1] ledger hash.
  ARGV[1] the warning.
  Returns 1 when added, 0 otherwise (no ledger, or a duplicate).
]]
local raw = redis.call('HGET', KEYS[1], 'warnings')
if not raw then return 0 end
local list = cjson.decode(raw)
for _, w in ipairs(list) do if w == ARGV[1] then return 0 end end
list[#list + 1] = ARGV[1]
redis.call('HSET', KEYS[1], 'warnings', cjson.encode(list))
return 1
