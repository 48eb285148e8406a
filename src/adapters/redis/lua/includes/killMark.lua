--[[
  Shared by the kill scripts: mark(g, kid) appends a kill to a group's marks and lists the pair
  in the marked index; true when the group did not carry the kill yet.
  KEYS: none of its own; the including script sets the locals KEYS_KILLED, KEYS_MARKED.
  ARGV: none of its own.
]]
local function mark(g, kid)
  local marks = redis.call('HGET', KEYS_KILLED, g)
  if marks and string.find(' ' .. marks .. ' ', ' ' .. kid .. ' ', 1, true) then return false end
  if marks then marks = marks .. ' ' .. kid else marks = kid end
  redis.call('HSET', KEYS_KILLED, g, marks)
  redis.call('ZADD', KEYS_MARKED, 0, kid .. '\0' .. g)
  return true
end
