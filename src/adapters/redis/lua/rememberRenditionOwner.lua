--[[
  Note records under their rendition set's owners hash, up to the cap (and up to twice it for
  records that arrived guarded: killed, withdrawn, superseded, with an embargo or expiry); a record
  already listed is always updated.
  KEYS[1] the set's owners hash.
  ARGV[1] the cap; then per record: item id, owner JSON, guarded ('1' or '0').
  Returns how many records the hash lists.
]]
local n = redis.call('HLEN', KEYS[1])
local cap = tonumber(ARGV[1])
for i = 2, #ARGV, 3 do
  local keep = n < cap or (ARGV[i + 2] == '1' and n < 2 * cap) or redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1
  if keep and redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then n = n + 1 end
end
return n
