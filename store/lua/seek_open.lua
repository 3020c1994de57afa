-- Open a seek within its bounds: KEYS[1] the seek's hash, KEYS[2] the open seeks, KEYS[3] the
-- account's open seeks, KEYS[4] the address's open seeks; ARGV[1] the seek id, ARGV[2] its
-- JSON data, ARGV[3] now (ms), ARGV[4] the bound per account, ARGV[5] the bound per address
-- (0: none). Returns 1 (opened), -1 (the account holds its bound), -2 (the address does).
local per_account = tonumber(ARGV[4])
local per_address = tonumber(ARGV[5])
if per_account > 0 and redis.call('ZCARD', KEYS[3]) >= per_account then
  return -1
end
if per_address > 0 and redis.call('ZCARD', KEYS[4]) >= per_address then
  return -2
end
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'since', ARGV[3], 'seen', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
return 1
