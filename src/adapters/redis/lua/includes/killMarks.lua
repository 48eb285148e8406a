--[[
  Shared by kills/register and kills/recheck: killOf(g, isRef) is the live kill that decides what
  arrives in group g: the first that marked it, or for a reused reference the latest one, and only
  within the window of its time. Also split(s) and live(kid) (the event of a kill not lifted).
  KEYS: none of its own; expects the locals KEYS_KILLED, KEYS_MARKED, KEYS_EVENTS, KEYS_LIFTED,
  KEYS_LOG and nowMs, windowMs (includes/killKeys).
  ARGV: none of its own.
]]
--- @include "includes/killMark"
local function split(s) local t = {} for w in string.gmatch(s, '%S+') do t[#t + 1] = w end return t end
local function live(kid)
  if redis.call('HEXISTS', KEYS_LIFTED, kid) == 1 then return nil end
  local ev = redis.call('HGET', KEYS_EVENTS, kid)
  if not ev then return nil end
  return cjson.decode(ev)
end
local function killOf(g, isRef)
  local marks = redis.call('HGET', KEYS_KILLED, g)
  if not marks then return nil end
  local ids = split(marks)
  if isRef then
    for i = #ids, 1, -1 do
      local e = live(ids[i])
      if e then
        local at = redis.call('ZSCORE', KEYS_LOG, ids[i])
        if at and math.abs(nowMs - tonumber(at)) <= windowMs then return ids[i], e end
        return nil
      end
    end
    return nil
  end
  for i = 1, #ids do
    local e = live(ids[i])
    if e then return ids[i], e end
  end
  return nil
end
