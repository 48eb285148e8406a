--[[
  Record where a hot folder moved a batch's files, only while the batch's ledger exists: a watcher
  finishing a take after retention removed the batch must not leave a key behind that nothing
  deletes.
  KEYS[1] the ledger, KEYS[2] the batch's moves.
  ARGV: from, to, from, to...
  Returns 1 when recorded, 0 when the batch is gone.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV))
return 1
