--[[
  Drop a lease, only by its holder: a holder that stalled past its expiry must not release the
  lease a successor has since taken.
  KEYS[1] the lease.
  ARGV[1] the holder's token.
  Returns 1 when released, 0 otherwise.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
