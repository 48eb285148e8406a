--[[
  Close a ledger, only when every item is counted: ok + failed = expected. A ledger that is gone
  (Redis lost its data) is not re-created as a hash holding only `state: done`.
  Closing a ledger that was open adds this round's time (now - openedMs) to processingMs; closing one
  already done (a finalize job run again, the export error recorded after the summary) adds nothing.
  A ledger of an older version (no openedMs) counts its round from createdAt.
  A finalize of an earlier round than the ledger's (`round`, absent = 1: a retry reopened the batch
  since the job was queued) changes nothing: the retried items are still to come, and the current
  round's finalize closes the batch once they have ended.
  KEYS[1] ledger hash.
  ARGV[1] finishedAt (ISO), ARGV[2] export error ('' leaves it, '-' clears it, else sets it),
  ARGV[3] finishedAt (ms), ARGV[4] createdAt (ms) when the ledger has no openedMs ('' unknown),
  ARGV[5] the caller's round ('' for any).
  Returns 'done', 'gone', 'stale:<round>' (nothing changed), or 'short:<ok>:<failed>:<expected>'
  (the ledger is left open).
]]
if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return 'gone' end
local current = tonumber(redis.call('HGET', KEYS[1], 'round') or '1') or 1
if ARGV[5] ~= '' and tonumber(ARGV[5]) < current then return 'stale:' .. current end
if ARGV[2] == '-' then redis.call('HDEL', KEYS[1], 'exportError')
elseif ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'exportError', ARGV[2]) end
local ok = tonumber(redis.call('HGET', KEYS[1], 'ok') or '0')
local failed = tonumber(redis.call('HGET', KEYS[1], 'failed') or '0')
local expected = tonumber(redis.call('HGET', KEYS[1], 'expected') or '0')
if ok + failed < expected then return 'short:' .. ok .. ':' .. failed .. ':' .. expected end
if redis.call('HGET', KEYS[1], 'state') ~= 'done' then
  local opened = tonumber(redis.call('HGET', KEYS[1], 'openedMs') or ARGV[4])
  if opened then
    local round = tonumber(ARGV[3]) - opened
    if round < 0 then round = 0 end
    redis.call('HINCRBY', KEYS[1], 'processingMs', round)
  end
end
redis.call('HSET', KEYS[1], 'state', 'done', 'finishedAt', ARGV[1])
return 'done'
