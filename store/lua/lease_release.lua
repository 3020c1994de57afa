-- KEYS[1] a lease; ARGV[1] its holder's token. Drops the lease only if still held by it.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
