-- Write a sign-in session's new last use only while the session exists, so a revocation
-- that landed between the read and this write is not undone; renew the account's hash.
-- KEYS[1] the account's sessions hash
-- ARGV[1] the token's hash (the field), ARGV[2] the session's JSON, ARGV[3] ms to live
-- Returns 1 when written, 0 when the session is gone.
if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
redis.call("PEXPIRE", KEYS[1], ARGV[3])
return 1
