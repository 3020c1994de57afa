-- Create an account record unless one of that (folded) name or of that confusable skeleton
-- exists, and index its key and its skeleton.
-- KEYS[1] the account record, KEYS[2] its key-hash index entry, KEYS[3] its skeleton's index
--   entry (KEYS[2] and KEYS[3] optional: store/accounts.py splits the call on a Redis
--   Cluster, where the keys sit on different slots)
-- ARGV: field, value, field, value ... of the record; ARGV[#ARGV] the folded name
-- Returns 1 when created, 0 when the name or the skeleton is taken.
if redis.call("EXISTS", KEYS[1]) == 1 then
  return 0
end
if KEYS[3] and redis.call("EXISTS", KEYS[3]) == 1 then
  return 0
end
redis.call("HSET", KEYS[1], unpack(ARGV, 1, #ARGV - 1))
if KEYS[2] then
  redis.call("SET", KEYS[2], ARGV[#ARGV])
end
if KEYS[3] then
  redis.call("SET", KEYS[3], ARGV[#ARGV])
end
return 1
