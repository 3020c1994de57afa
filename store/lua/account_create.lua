-- Create an account record unless one of that (folded) name exists, and index its key.
-- KEYS[1] the account record, KEYS[2] its key-hash index entry (same slot is not required
--   on a standalone Redis; store/accounts.py splits the call on a Redis Cluster)
-- ARGV: field, value, field, value ... of the record; ARGV[#ARGV] the folded name
-- Returns 1 when created, 0 when the name is taken.
if redis.call("EXISTS", KEYS[1]) == 1 then
  return 0
end
redis.call("HSET", KEYS[1], unpack(ARGV, 1, #ARGV - 1))
if KEYS[2] then
  redis.call("SET", KEYS[2], ARGV[#ARGV])
end
return 1
