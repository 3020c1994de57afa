-- Claim up to ARGV[3] members of the sorted set KEYS[1] whose score is at most ARGV[1]:
-- each one's score becomes ARGV[2] (the end of the claim), so no other caller takes it
-- before then. Returns the claimed members.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member)
end
return due
