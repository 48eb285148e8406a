--[[
  Save a run, folding an empty check into the schedule's newest row when that row is empty too.
  KEYS[1] all runs by start, KEYS[2] the schedule's runs by start, KEYS[3] this run's record,
  KEYS[4] the record of the schedule's newest other row as the caller saw it (absent: none); all in
  the `{<p>:runs}` slot (src/adapters/redis/keys.ts).
  ARGV[1] the run (JSON, state empty), ARGV[2] its id, ARGV[3] its score (start, ms), ARGV[4] the id
  of that newest other row ('' for none), ARGV[5] FOLDED_TTL_MS.
  When the newest other row is no longer ARGV[4] (another process saved meanwhile), nothing is
  written and it returns {'stale', id}: the caller calls again with that row's key.
  If the schedule's newest other row is empty, the run is folded into it (checks + 1, lastAt,
  finishedAt and note of this run) and its own record kept for ARGV[5] ms, unlisted; else it is saved
  as a row. Returns the id of the row that shows it. In one step, so two scheduler processes saving
  at once never lose a check or make two rows of one stretch.
]]
local ids = redis.call('ZREVRANGE', KEYS[2], 0, 1)
local prevId = nil
for _, id in ipairs(ids) do
  if id ~= ARGV[2] then prevId = id break end
end
if (prevId or '') ~= ARGV[4] then return {'stale', prevId or ''} end
if prevId then
  local prevKey = KEYS[4]
  local raw = redis.call('GET', prevKey)
  if raw then
    local prev = cjson.decode(raw)
    if prev.state == 'empty' then
      local run = cjson.decode(ARGV[1])
      prev.checks = (tonumber(prev.checks) or 1) + 1
      prev.lastAt = run.startedAt
      prev.finishedAt = run.finishedAt
      prev.note = run.note
      redis.call('SET', prevKey, cjson.encode(prev))
      redis.call('ZREM', KEYS[1], ARGV[2])
      redis.call('ZREM', KEYS[2], ARGV[2])
      run.foldedInto = prevId
      redis.call('SET', KEYS[3], cjson.encode(run), 'PX', ARGV[5])
      return prevId
    end
  end
end
redis.call('SET', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
return ARGV[2]
