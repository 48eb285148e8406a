--[[
  Shared by kills/register and kills/recheck: their KEYS as named locals.
  KEYS[1] items, KEYS[2] members, KEYS[3] status, KEYS[4] killed, KEYS[5] events, KEYS[6] log,
  KEYS[7] corrected, KEYS[8] reached, KEYS[9] marked, KEYS[10] bare, KEYS[11] lifted.
  ARGV: none of its own (each script reads its times, nowMs and windowMs, from its own ARGV).
]]
local KEYS_ITEMS, KEYS_MEMBERS, KEYS_STATUS, KEYS_KILLED, KEYS_EVENTS, KEYS_LOG = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local KEYS_CORRECTED, KEYS_REACHED, KEYS_MARKED, KEYS_BARE, KEYS_LIFTED = KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11]
