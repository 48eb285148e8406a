--[[
  One atomic step per image: find the photo by its pixels (JPEG scan data) or by the agency's id
  (transmission reference, guid), else start a new one; identical bytes are the same version.
  The photo's own hashes are KEYS too, for the photo the caller expects (ARGV[4]: the one its pixels
  or reference named when it looked, else the new photo's id, its sha256); when the keys name
  another photo the script changes nothing and replies {'stale', photo}, and the caller calls again
  with that photo's keys (a photo id, once set, never changes: the second call succeeds).
  KEYS[1] byPixels, KEYS[2] items hash, KEYS[3] versions hash and KEYS[4] first-items hash of the
  expected photo, KEYS[5] byRef (optional).
  ARGV[1] itemId, ARGV[2] sha256, ARGV[3] phash, ARGV[4] expected photo id.
  Returns {photo, version, '<previous item> <previous sha256>' or ''}, or {'stale', photo}.
]]
local photo = redis.call('GET', KEYS[1])
if (not photo) and KEYS[5] then photo = redis.call('GET', KEYS[5]) end
if not photo then photo = ARGV[2] end
if photo ~= ARGV[4] then return {'stale', photo} end
redis.call('SET', KEYS[1], photo, 'NX')
if KEYS[5] then redis.call('SET', KEYS[5], photo, 'NX') end
local versions = KEYS[3]
local firstItem = KEYS[4]
local v = redis.call('HGET', versions, ARGV[2])
if not v then
  v = redis.call('HLEN', versions) + 1
  redis.call('HSET', versions, ARGV[2], v)
  redis.call('HSET', firstItem, tostring(v), ARGV[1] .. ' ' .. ARGV[2])
end
v = tonumber(v)
redis.call('HSET', KEYS[2], ARGV[1], photo .. ' ' .. ARGV[3])
local prev = ''
if v > 1 then prev = redis.call('HGET', firstItem, tostring(v - 1)) or '' end
return {photo, v, prev}
