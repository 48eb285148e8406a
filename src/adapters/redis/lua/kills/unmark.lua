--[[
  Unmark groups of a lifted kill (a slice of them).
  KEYS[1] killed, KEYS[2] marked, KEYS[3] corrected.
  ARGV[1] killId, ARGV[2..] groups.
  Returns how many groups were given.
]]
local kid = ARGV[1]
for i = 2, #ARGV do
  local g = ARGV[i]
  local marks = redis.call('HGET', KEYS[1], g)
  if marks then
    local keep = {}
    for w in string.gmatch(marks, '%S+') do if w ~= kid then keep[#keep + 1] = w end end
    if #keep == 0 then redis.call('HDEL', KEYS[1], g) else redis.call('HSET', KEYS[1], g, table.concat(keep, ' ')) end
  end
  if redis.call('HGET', KEYS[3], g) == kid then redis.call('HDEL', KEYS[3], g) end
  redis.call('ZREM', KEYS[2], kid .. '\0' .. g)
end
return #ARGV - 1
