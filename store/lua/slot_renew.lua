-- Renew many leased slots of one key at once: KEYS[1] a sorted set of slot ids scored by the
-- ms their lease ends (as slot_claim.lua), ARGV[1] the lease in ms, ARGV[2..] the slot ids.
-- A renewal is never refused (a lapsed slot is held again). Returns the number renewed.
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lease = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], now_ms + lease, ARGV[i])
end
if redis.call('PTTL', KEYS[1]) < lease then
  redis.call('PEXPIRE', KEYS[1], lease)
end
return #ARGV - 1
