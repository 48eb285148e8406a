--[[
  Shared by kills/register and kills/recheck: decide(id, info, nowIso) gives a record the status
  the live kills give it now (a kill marking one of its groups, else a correction superseding it in
  its own feed), stores it and returns it (JSON), or '' when none does.
  KEYS: none of its own; needs includes/killMarks and the locals KEYS_ITEMS, KEYS_STATUS,
  KEYS_CORRECTED, KEYS_REACHED.
  ARGV: none of its own.
]]
local function decide(id, info, nowIso)
  local isRef = {}
  if type(info.refs) == 'table' then for _, r in ipairs(info.refs) do isRef[r] = true end end
  local killId, event = nil, nil
  for _, g in ipairs(info.groups) do
    if string.sub(g, 1, 2) ~= 'c:' then
      killId, event = killOf(g, isRef[g])
      if killId then break end
    end
  end
  if not killId then
    for _, g in ipairs(info.groups) do
      local cid = redis.call('HGET', KEYS_CORRECTED, g)
      local ev = cid and live(cid)
      if ev then
        local by = ev.supersededBy
        local supJson = type(by) == 'string' and by ~= id and redis.call('HGET', KEYS_ITEMS, by)
        if supJson then
          local sup = cjson.decode(supJson)
          if sup.batchId == info.batchId and type(sup.index) == 'number' and type(info.index) == 'number' and info.index < sup.index then
            redis.call('ZADD', KEYS_REACHED, 0, cid .. '\0' .. id)
            local st = cjson.encode({ status = 'superseded', killedAt = cjson.null, reason = ev.reason, notice = ev.notice, supersededBy = by, killId = cid })
            redis.call('HSET', KEYS_STATUS, id, st)
            return st
          end
        end
      end
    end
    return ''
  end
  redis.call('ZADD', KEYS_REACHED, 0, killId .. '\0' .. id)
  -- the record's other ids carry the kill from now on: its copies that arrive later are killed on arrival
  for _, g in ipairs(info.groups) do
    local p = string.sub(g, 1, 2)
    if p ~= 'c:' and p ~= 'b:' and not isRef[g] then mark(g, killId) end
  end
  local status = cjson.encode({ status = event.status, killedAt = nowIso, reason = event.reason, notice = event.notice, supersededBy = cjson.null, killId = killId })
  redis.call('HSET', KEYS_STATUS, id, status)
  return status
end
