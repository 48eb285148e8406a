--[[
  Shared by catalog/markItem and catalog/markItems: markOne stores one item's outcome (the record,
  its facets, its state and failure entry); the ledger's counts move only when the item's state
  changes. `ledger` is whether the ledger exists (ledgerRunning, checked once per call). Returns the
  previous state ('' for none).
  KEYS: as catalog/markItem's KEYS[1..8]. ARGV: none of its own (the arguments are passed in).
]]
--- @include "includes/recordFacets"
local function markOne(ix, ledger, itemId, state, pos, record, failure, facets)
  storeFacets(KEYS[5], pos, facets, ix, KEYS[6], KEYS[7], KEYS[8])
  local prev = redis.call('HGET', KEYS[2], itemId)
  redis.call('HSET', KEYS[2], itemId, state)
  redis.call('HSET', KEYS[3], pos, record)
  if state == 'failed' then
    local entry = cjson.decode(failure)
    local before = redis.call('HGET', KEYS[4], itemId)
    if before then
      local b = cjson.decode(before)
      local prior, retries = tonumber(b.priorAttempts) or 0, tonumber(b.retries) or 0
      if b.retryQueued then prior, retries = tonumber(b.attempts) or 0, retries + 1 end
      entry.priorAttempts = prior
      entry.retries = retries
      entry.attempts = prior + (tonumber(entry.attempts) or 0)
    end
    redis.call('HSET', KEYS[4], itemId, cjson.encode(entry))
  else
    redis.call('HDEL', KEYS[4], itemId)
  end
  if ledger and prev ~= state then
    if prev then redis.call('HINCRBY', KEYS[1], prev, -1) end
    redis.call('HINCRBY', KEYS[1], state, 1)
  end
  return prev or ''
end
local function ledgerRunning()
  if redis.call('HEXISTS', KEYS[1], 'id') == 0 then return false end
  if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') end
  return true
end
