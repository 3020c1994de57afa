-- Claim seeks for one new game, all or none: KEYS come in threes per seek (its hash, its
-- playing set, its games list); ARGV[1] the game id, ARGV[2] now (ms), ARGV[3] how many
-- games of the list to keep, then each seek's max_games. A seek is claimable while it is
-- open (its hash exists) and fewer than max_games of its claimed games are in play. Returns
-- 0 when every seek was claimed, else the (1-based) position of the first one that was not.
local seeks = #KEYS / 3
for i = 1, seeks do
  local base = (i - 1) * 3
  if redis.call('EXISTS', KEYS[base + 1]) == 0 then
    return i
  end
  if redis.call('ZCARD', KEYS[base + 2]) >= tonumber(ARGV[3 + i]) then
    return i
  end
end
local keep = tonumber(ARGV[3])
for i = 1, seeks do
  local base = (i - 1) * 3
  redis.call('ZADD', KEYS[base + 2], ARGV[2], ARGV[1])
  redis.call('RPUSH', KEYS[base + 3], ARGV[1])
  redis.call('LTRIM', KEYS[base + 3], -keep, -1)
  redis.call('HSET', KEYS[base + 1], 'since', ARGV[2])
end
return 0
