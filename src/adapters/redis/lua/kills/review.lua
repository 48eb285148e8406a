--[[
  List records for review (near-identical captions of killed ones), skipping those the kill reached.
  KEYS[1] reached, KEYS[2] review.
  ARGV[1] killId, ARGV[2..] itemIds.
  Returns how many were added.
]]
local n = 0
for i = 2, #ARGV do
  local m = ARGV[1] .. '\0' .. ARGV[i]
  if not redis.call('ZSCORE', KEYS[1], m) then n = n + redis.call('ZADD', KEYS[2], 0, m) end
end
return n
