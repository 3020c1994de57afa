-- Replace an account's key only while it still holds the key its caller showed, so that of
-- requests racing with one key exactly one rotates and the others find it replaced.
-- KEYS[1] the account record, KEYS[2] the old key's index entry, KEYS[3] the new key's
--   (KEYS[2] and KEYS[3] optional: store/accounts.py moves the index after the call on a
--   Redis Cluster, where the keys sit on different slots)
-- ARGV[1] the old key hash, ARGV[2] the new key hash, ARGV[3] the new webhook secret,
-- ARGV[4] the folded name
-- Returns 1 when rotated, 0 when the account holds another key now.
if redis.call("HGET", KEYS[1], "key_hash") ~= ARGV[1] then
  return 0
end
redis.call("HSET", KEYS[1], "key_hash", ARGV[2], "webhook_secret", ARGV[3])
if KEYS[2] then
  redis.call("DEL", KEYS[2])
end
if KEYS[3] then
  redis.call("SET", KEYS[3], ARGV[4])
end
return 1
