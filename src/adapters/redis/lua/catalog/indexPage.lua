--[[
  The page of an index (or of the intersection of several, kept a short while for the next
  pages): how many records it holds and the batch indexes of ranks ARGV[1]..ARGV[2].
  KEYS[1] the intersection's key (unused for one index), KEYS[2..] index sorted sets.
  ARGV[1] first rank, ARGV[2] last rank, ARGV[3] seconds to keep an intersection.
  Returns {count, index...}.
]]
local key = KEYS[2]
if #KEYS > 2 then
  key = KEYS[1]
  if redis.call('EXISTS', key) == 0 then
    local src = {}
    for i = 2, #KEYS do src[#src + 1] = KEYS[i] end
    redis.call('ZINTERSTORE', key, #src, unpack(src))
  end
  redis.call('EXPIRE', key, ARGV[3])
end
local out = { redis.call('ZCARD', key) }
for _, m in ipairs(redis.call('ZRANGE', key, ARGV[1], ARGV[2])) do out[#out + 1] = m end
return out
