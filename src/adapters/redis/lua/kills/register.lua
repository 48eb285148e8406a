--[[
  Index a stored record by its groups; if a live kill marks one of them, kill it on arrival (or
  supersede it, see includes/killDecide). A record that already has a status keeps it.
  KEYS: as includes/killKeys (items, members, status, killed, events, log, corrected, reached,
  marked, bare, lifted).
  ARGV[1] itemId, ARGV[2] info JSON (groups, refs), ARGV[3] nowIso, ARGV[4] nowMs, ARGV[5] windowMs,
  ARGV[6..] bare entries (`<id>\0<group>`).
  Returns the record's status JSON, or '' when no kill reaches it.
]]
--- @include "includes/killKeys"
local nowMs, windowMs = tonumber(ARGV[4]), tonumber(ARGV[5])
--- @include "includes/killMarks"
--- @include "includes/killDecide"
local id = ARGV[1]
local info = cjson.decode(ARGV[2])
redis.call('HSET', KEYS_ITEMS, id, ARGV[2])
for _, g in ipairs(info.groups) do redis.call('ZADD', KEYS_MEMBERS, 0, g .. '\0' .. id) end
for i = 6, #ARGV do redis.call('ZADD', KEYS_BARE, 0, ARGV[i]) end
local current = redis.call('HGET', KEYS_STATUS, id)
if current then return current end
return decide(id, info, ARGV[3])
