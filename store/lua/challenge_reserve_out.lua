-- The challenger's side of opening a challenge, in the challenger's slot: unless a cooldown
-- or an open challenge of the same pair stands in the way, or its outgoing limit is
-- reached, list the challenge among its open outgoing and mark each pair with it.
-- KEYS[1] the challenger's open outgoing, then for each invitee the pair's open challenge
-- and the pair's cooldown (two keys each).
-- ARGV[1] now (ms), ARGV[2] expires at (ms), ARGV[3] outgoing limit, ARGV[4] the id.
-- Returns {1} or {0, 'out'} or {0, 'cooldown', <invitee index, 1-based>, <ms left>} or
-- {0, 'pair', <index>, <the pair's challenge id>}.
-- The pair comes before the outgoing limit: replacing one does not add to it.
local now, expires = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local invitees = (#KEYS - 1) / 2
for i = 1, invitees do
  local base = 1 + 2 * (i - 1)
  local left = redis.call('PTTL', KEYS[base + 2])
  if left > 0 then
    return {0, 'cooldown', i, left}
  end
  -- the pair's mark counts while its challenge is among the challenger's open outgoing:
  -- a close (or the expiry trimmed above) leaves a stale mark that the SET below replaces
  local pair = redis.call('GET', KEYS[base + 1])
  if pair and redis.call('ZSCORE', KEYS[1], pair) then
    return {0, 'pair', i, pair}
  end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return {0, 'out'}
end
redis.call('ZADD', KEYS[1], expires, ARGV[4])
for i = 1, invitees do
  redis.call('SET', KEYS[1 + 2 * (i - 1) + 1], ARGV[4], 'PX', math.max(1, expires - now))
end
return {1}
