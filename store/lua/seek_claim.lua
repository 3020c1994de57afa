-- Claim one seek for a new game: KEYS[1] its hash, KEYS[2] its playing set, KEYS[3] its
-- games list; ARGV[1] the game id, ARGV[2] now (ms), ARGV[3] how many games of the list to
-- keep, ARGV[4] the seek's max_games. A seek is claimable while it is open (its hash exists)
-- and fewer than max_games of its claimed games are in play. Returns the seek's `since`
-- before the claim (what store/lua/seek_unclaim.lua puts back), or -1 when not claimable.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  return -1
end
local since = tonumber(redis.call('HGET', KEYS[1], 'since') or '0')
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('LTRIM', KEYS[3], -tonumber(ARGV[3]), -1)
redis.call('HSET', KEYS[1], 'since', ARGV[2])
return since
