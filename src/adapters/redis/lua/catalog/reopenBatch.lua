--[[
  Failed items went back in the queue: the batch runs again, and a new round of processing time
  begins now, unless a round is already running (a retry while the batch is still open).
  Every reopen begins a new round (`round`, absent = 1): the finalize jobs queued before it are of an
  earlier round and can no longer close the batch (catalog/finishBatch).
  KEYS[1] ledger hash.
  ARGV[1] now (ms), ARGV[2] the elapsed time to take as the processing time of a ledger closed by a
  version before processingMs existed ('' when not done).
  Returns the new round, or 0 when there is no ledger.
]]
if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'state') == 'done' then
  if ARGV[2] ~= '' then redis.call('HSETNX', KEYS[1], 'processingMs', ARGV[2]) end
  redis.call('HSET', KEYS[1], 'openedMs', ARGV[1])
end
local round = (tonumber(redis.call('HGET', KEYS[1], 'round') or '1') or 1) + 1
redis.call('HSET', KEYS[1], 'state', 'running', 'round', round)
redis.call('HDEL', KEYS[1], 'finishedAt')
return round
