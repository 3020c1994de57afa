-- Reserve a place for a new seek under a bound: KEYS[1] the open seeks of its account (or of
-- its client address); ARGV[1] the seek id, ARGV[2] now (ms), ARGV[3] the bound (0: none).
-- Returns 1 (reserved) or 0 (the set holds its bound already).
local bound = tonumber(ARGV[3])
if bound > 0 and redis.call('ZCARD', KEYS[1]) >= bound then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
