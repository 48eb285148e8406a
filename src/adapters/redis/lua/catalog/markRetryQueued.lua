--[[
  Mark a failure as put back in the queue (retryQueued), so that the item failing again is a new
  round whose attempts add to these. Only the failure that was retried (same time) is marked.
  KEYS[1] failures (itemId -> JSON).
  ARGV[1] itemId, ARGV[2] the failure's time (its `at`).
  Returns 1 when marked, 0 otherwise.
]]
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
if entry.at ~= ARGV[2] then return 0 end
entry.retryQueued = true
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
return 1
