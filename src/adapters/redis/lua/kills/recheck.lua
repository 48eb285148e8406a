--[[
  The records a lifted kill had given their status: each gets what the live kills give it now
  (another kill that also named it, a correction), else none (active as stored).
  KEYS: as includes/killKeys (items, members, status, killed, events, log, corrected, reached,
  marked, bare, lifted).
  ARGV[1] killId, ARGV[2] nowIso, ARGV[3] nowMs, ARGV[4] windowMs, ARGV[5..] itemIds.
  Returns how many records changed.
]]
--- @include "includes/killKeys"
local nowMs, windowMs = tonumber(ARGV[3]), tonumber(ARGV[4])
--- @include "includes/killMarks"
--- @include "includes/killDecide"
local changed = 0
for i = 5, #ARGV do
  local id = ARGV[i]
  local cur = redis.call('HGET', KEYS_STATUS, id)
  if cur and cjson.decode(cur).killId == ARGV[1] then
    redis.call('HDEL', KEYS_STATUS, id)
    changed = changed + 1
    local v = redis.call('HGET', KEYS_ITEMS, id)
    if v then decide(id, cjson.decode(v), ARGV[2]) end
  end
end
return changed
