-- Count one rated game a pair begins, unless the pair began its daily limit already.
-- KEYS[1] the pair's begun set (store.keys.pair_begun)
-- ARGV: game id, now (ms), window (ms), limit
-- Returns 1 when the game counts (added now, or added by an earlier call), 0 at the limit.
local now, window, limit = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 1
end
if redis.call('ZCARD', KEYS[1]) >= limit then
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], window)
return 1
