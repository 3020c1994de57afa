-- Append one game's result to the ladder, once per game id.
-- KEYS[1] the game type's ladder games hash (game id -> sequence), KEYS[2] its log (list):
-- one slot, `{l:<game>}`, so the check and the append are one step on a cluster too
-- ARGV[1] the game id, ARGV[2] the entry (JSON)
-- Returns {1, sequence} when appended, {0, sequence} when the game was in the ladder already.
local seq = redis.call("HGET", KEYS[1], ARGV[1])
if seq then
  return {0, tonumber(seq)}
end
seq = redis.call("RPUSH", KEYS[2], ARGV[2])
redis.call("HSET", KEYS[1], ARGV[1], seq)
return {1, seq}
