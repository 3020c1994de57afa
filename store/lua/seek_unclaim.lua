-- Undo one seek's claim for a game that another seek of its table refused: KEYS[1] its
-- hash, KEYS[2] its playing set, KEYS[3] its games list; ARGV[1] the game id, ARGV[2] the
-- `since` the claim replaced. The seek waits on as if never claimed (its wait keeps
-- counting, so its accepted range and its pool bots' wait are not reset).
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('LREM', KEYS[3], 0, ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'since', ARGV[2])
end
return 1
