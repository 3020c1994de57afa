-- Compare and set on a sorted set: the score of ARGV[1] in KEYS[1] becomes ARGV[3] only while
-- it is still ARGV[2], the score the caller read (a newer write has not replaced it). Used to
-- extend a turn's claim (store.account_turns) and to defer a deadline (store.index).
-- Returns 1 when set, 0 otherwise.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
