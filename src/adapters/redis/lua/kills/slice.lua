--[[
  One slice of a kill: the records given (members of group `via`) get its status unless they have
  a stronger one; each is listed as reached; for a kill or withdrawal, the groups of each that the
  kill had not marked yet are marked now and returned (the caller reads their members next: marked
  first, read after, so a record arriving in between is killed on arrival), with their caption
  clusters (for the review list). A reused reference reaches only records received near the kill.
  KEYS[1] items, KEYS[2] status, KEYS[3] killed, KEYS[4] marked, KEYS[5] reached, KEYS[6] events,
  KEYS[7] lifted, KEYS[8] log.
  ARGV[1] killId, ARGV[2] status JSON, ARGV[3] rank, ARGV[4] nowMs, ARGV[5] windowMs, ARGV[6] the
  excluded item ('' or the correction itself), then pairs from ARGV[7]: via group, itemId.
  Returns {reached, newGroups, clusters}.
]]
local KEYS_KILLED, KEYS_MARKED = KEYS[3], KEYS[4]
local kid, rank, nowMs, windowMs = ARGV[1], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
--- @include "includes/killMark"
local rankOf = { killed = 2, withdrawn = 1, superseded = 0, active = -1 }
local newGroups, clusters, reached = {}, {}, 0
for i = 7, #ARGV - 1, 2 do
  local via, id = ARGV[i], ARGV[i + 1]
  if id ~= ARGV[6] then
    local v = redis.call('HGET', KEYS[1], id)
    local info = v and cjson.decode(v)
    local near = true
    if info and type(info.refs) == 'table' then
      for _, r in ipairs(info.refs) do
        if r == via and type(info.receivedMs) == 'number' and math.abs(info.receivedMs - nowMs) > windowMs then near = false end
      end
    end
    if near then
      reached = reached + 1
      redis.call('ZADD', KEYS[5], 0, kid .. '\0' .. id)
      local cur = redis.call('HGET', KEYS[2], id)
      local curRank = -1
      if cur then curRank = rankOf[cjson.decode(cur).status] or -1 end
      if curRank < rank or (rank == 0 and curRank < 0) then redis.call('HSET', KEYS[2], id, ARGV[2]) end
      if info and rank > 0 then
        for _, g in ipairs(info.groups) do
          local p = string.sub(g, 1, 2)
          if p == 'c:' then clusters[#clusters + 1] = g
          elseif p ~= 'b:' and mark(g, kid) then newGroups[#newGroups + 1] = g end
        end
      end
    end
  end
end
return {reached, newGroups, clusters}
