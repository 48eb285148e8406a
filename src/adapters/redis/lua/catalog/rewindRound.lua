--[[
  Undo a reopen's new round when its finalize job could not be added (the retry failed): the
  finalize jobs of the round before are the batch's again. Only if no other reopen came since.
  KEYS[1] ledger hash.
  ARGV[1] the round the reopen began.
  Returns 1.
]]
if redis.call('HGET', KEYS[1], 'round') == ARGV[1] then redis.call('HSET', KEYS[1], 'round', tonumber(ARGV[1]) - 1) end return 1
