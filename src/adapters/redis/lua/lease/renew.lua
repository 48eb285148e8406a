--[[
  Renew a lease, only by its holder: a holder that stalled past its expiry must not extend the
  lease a successor has since taken.
  KEYS[1] the lease (src/adapters/redis/keys.ts: a claim or a schedule's lock).
  ARGV[1] the holder's token, ARGV[2] the ttl (ms).
  Returns 1 when renewed, 0 when another holds it or it expired.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end
