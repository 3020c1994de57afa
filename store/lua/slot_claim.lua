-- Claim (or renew) a leased slot: KEYS[1] a sorted set of slot ids scored by the ms their
-- lease ends; ARGV[1] the slot id, ARGV[2] the lease in ms, ARGV[3] the bound (0: a renewal,
-- never refused). The time is the server's own, so every process counts on one clock.
-- Expired leases are dropped first. Returns 1 when the slot is held, 0 at the bound.
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
local bound = tonumber(ARGV[3])
if bound > 0 and not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  if redis.call('ZCARD', KEYS[1]) >= bound then
    return 0
  end
end
redis.call('ZADD', KEYS[1], now_ms + lease, ARGV[1])
if redis.call('PTTL', KEYS[1]) < lease then
  redis.call('PEXPIRE', KEYS[1], lease)
end
return 1
