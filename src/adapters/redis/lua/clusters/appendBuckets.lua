--[[
  Append entries (a cluster id and its signature, core/dedup/subjectBuckets.ts) to bucket fields of the caption-cluster index (captionIndexSubject.ts): a
  bucket's value only grows while clusters are assigned, so Node sends the new ids, never the
  whole value again (sending it whole made the bytes written per caption grow with the index:
  docs/DEDUP.md "Measured"). Called under the index's batch lock, before the call's other writes,
  for the fields the call read as present (new fields are set with HSETNX, and come here only when
  another writer set them first).
  KEYS: the bucket shard hashes touched (one slot: the index's hash tag).
  ARGV: triples: the key's position in KEYS (1-based), the field, the entries to append (each ends in ';').
  Returns the number of fields written.
]]
local n = 0
for i = 1, #ARGV, 3 do
  local key = KEYS[tonumber(ARGV[i])]
  local old = redis.call('HGET', key, ARGV[i + 1])
  if old then
    redis.call('HSET', key, ARGV[i + 1], old .. ARGV[i + 2])
  else
    redis.call('HSET', key, ARGV[i + 1], ARGV[i + 2])
  end
  n = n + 1
end
return n
