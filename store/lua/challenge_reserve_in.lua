-- An invitee's side of opening a challenge, in the invitee's slot: list the challenge among
-- its open incoming unless its incoming limit is reached.
-- KEYS[1] the invitee's open incoming; ARGV[1] now (ms), ARGV[2] expires at (ms),
-- ARGV[3] incoming limit, ARGV[4] the id. Returns 1 (listed) or 0 (at its limit).
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
return 1
