-- Add ARGV[1] ms (negative: a refund) to the budget counter KEYS[1] if its window is still
-- open (the key exists); never below 0. Returns the new count, or -1 when the window passed.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
local count = redis.call('INCRBY', KEYS[1], tonumber(ARGV[1]))
if count < 0 then
  redis.call('SET', KEYS[1], 0, 'KEEPTTL')
  count = 0
end
return count
