--[[
  Start a kill: store the event once and mark the groups it names (so a record arriving from now
  on is killed on arrival, before the slices reach the ones already stored), or, for a correction,
  mark them corrected. The same id again: 'done' with the stored event, or 'resume' when its
  slices did not all run (a process stopped half-way).
  KEYS[1] events, KEYS[2] log, KEYS[3] killed, KEYS[4] marked, KEYS[5] corrected, KEYS[6] applying,
  KEYS[7] lifted.
  ARGV[1] killId, ARGV[2] event JSON, ARGV[3] nowMs, ARGV[4] rank (2 kill, 1 withdraw, 0 correction),
  ARGV[5..] target groups.
  Returns {'new'|'done'|'resume', event JSON}.
]]
local KEYS_KILLED, KEYS_MARKED = KEYS[3], KEYS[4]
--- @include "includes/killMark"
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then
  if redis.call('SISMEMBER', KEYS[6], ARGV[1]) == 1 then return {'resume', existing} end
  return {'done', existing}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), ARGV[1])
redis.call('SADD', KEYS[6], ARGV[1])
local rank = tonumber(ARGV[4])
for i = 5, #ARGV do
  if rank > 0 then mark(ARGV[i], ARGV[1]) else redis.call('HSET', KEYS[5], ARGV[i], ARGV[1]) end
end
return {'new', ARGV[2]}
