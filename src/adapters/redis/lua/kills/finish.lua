--[[
  A kill's slices have all run: it is no longer being applied.
  KEYS[1] applying.
  ARGV[1] killId.
  Returns 1 when it was listed, else 0.
]]
return redis.call('SREM', KEYS[1], ARGV[1])
