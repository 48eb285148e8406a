--[[
  Lift a kill: kept with who, when and why (its event stays, for the audit), after which it
  reaches nothing more.
  KEYS[1] events, KEYS[2] lifted, KEYS[3] audit.
  ARGV[1] killId, ARGV[2] lift JSON, ARGV[3] audit entry JSON.
  Returns 'none' (no such kill), 'already' (lifted before) or 'lifted'.
]]
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 'none' end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 'already' end
redis.call('LPUSH', KEYS[3], ARGV[3])
return 'lifted'
