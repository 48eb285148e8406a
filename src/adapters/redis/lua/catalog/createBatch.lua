--[[
  Create a batch's ledger whole, in one step, or repair a partial one. A ledger missing any of its
  fields (a crash between two writes of an older version left one holding only its id; Redis lost
  its data and an in-flight item wrote into the empty database) gets the missing fields from the
  feed, keeps the ones it has, and its ok/failed counts recounted from the item states it holds, so
  re-ingesting never ends `done` with items missing from the counts.
  `openedMs` is when the current round of processing began (this step, then each reopen);
  catalog/finishBatch adds the round's time to `processingMs`. `skipped` (not pictures, by kind) is
  part of the feed, stored with it.
  KEYS[1] ledger hash, KEYS[2] item states (itemId -> ok|failed). The batch list (another slot) is
  added to by createBatch after this step.
  ARGV[1] batch id, ARGV[2] feed, ARGV[3] format, ARGV[4] createdAt (ISO), ARGV[5] createdAt (ms),
  ARGV[6] expected, ARGV[7] warnings JSON, ARGV[8] article ('' for none), ARGV[9] skipped JSON.
  Returns 'created', 'repaired' or 'exists'.
]]
local fields = { 'id', 'feed', 'format', 'createdAt', 'state', 'expected', 'ok', 'failed', 'warnings', 'article' }
local missing = false
for _, f in ipairs(fields) do
  if redis.call('HEXISTS', KEYS[1], f) == 0 then missing = true end
end
if not missing then return 'exists' end
local had = redis.call('EXISTS', KEYS[1]) == 1
local ok, failed = 0, 0
local states = redis.call('HVALS', KEYS[2])
for _, v in ipairs(states) do
  if v == 'ok' then ok = ok + 1 elseif v == 'failed' then failed = failed + 1 end
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'ok', ok, 'failed', failed)
redis.call('HSETNX', KEYS[1], 'feed', ARGV[2])
redis.call('HSETNX', KEYS[1], 'format', ARGV[3])
redis.call('HSETNX', KEYS[1], 'createdAt', ARGV[4])
redis.call('HSETNX', KEYS[1], 'expected', ARGV[6])
redis.call('HSETNX', KEYS[1], 'warnings', ARGV[7])
redis.call('HSETNX', KEYS[1], 'article', ARGV[8])
redis.call('HSETNX', KEYS[1], 'skipped', ARGV[9])
local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'done' then
  -- A batch without its counts cannot have been closed truthfully: it runs again.
  redis.call('HSET', KEYS[1], 'state', (ok + failed > 0) and 'running' or 'queued')
  redis.call('HDEL', KEYS[1], 'finishedAt')
  if state == 'done' then redis.call('HSET', KEYS[1], 'openedMs', ARGV[5]) end
end
redis.call('HSETNX', KEYS[1], 'openedMs', ARGV[5])
return had and 'repaired' or 'created'
