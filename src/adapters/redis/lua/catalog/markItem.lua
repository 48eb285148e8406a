--[[
  Mark one item's outcome and store its record in one step. Counters move only when the item's
  state changes, so a retried or re-run item is never counted twice. A ledger that is not there
  (Redis restarted without its data while the item was in flight) is not invented from counters:
  the record and state are kept, and catalog/createBatch counts them when the batch is created
  again. The record's counters and indexes move in the same step (includes/recordFacets).
  A failure of an item whose earlier failure was put back in the queue by `retry` (retryQueued) is a
  new round: its attempts are added to the earlier rounds' (`attempts` counts every round, `retries`
  the rounds after the first). The same round recorded again (a worker that died after recording)
  replaces its own attempts, never adds them twice.
  KEYS[1] ledger hash, KEYS[2] item states (itemId -> ok|failed), KEYS[3] records (index -> JSON),
  KEYS[4] failures (itemId -> JSON), KEYS[5] facets (index -> JSON), KEYS[6] stats hash,
  KEYS[7] members per cluster, KEYS[8] records per caption digest, KEYS[9..] the index sorted sets
  named by ARGV[7].
  ARGV[1] itemId, ARGV[2] ok|failed, ARGV[3] the item's batch index, ARGV[4] record JSON,
  ARGV[5] failure JSON ('' when ok; its `attempts` are this round's), ARGV[6] the record's facets
  JSON, ARGV[7] JSON list of the index names of KEYS[9..].
  Returns the item's previous state ('' when none), or {'need', name...} (nothing written).
]]
--- @include "includes/markOne"
local ix = indexMap(9, cjson.decode(ARGV[7]))
local need = {}
missingIndexes(redis.call('HGET', KEYS[5], ARGV[3]), ix, need)
if #need > 0 then return { 'need', unpack(need) } end
return markOne(ix, ledgerRunning(), ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
