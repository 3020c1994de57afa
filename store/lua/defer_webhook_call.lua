-- After a failed webhook call: its turn's next call is not before ARGV[3] (ms), while the
-- hash KEYS[1] still records that call (version ARGV[1], attempt ARGV[2]); it expires at
-- ARGV[4]. Returns 1 when deferred.
if redis.call('HGET', KEYS[1], 'version') == ARGV[1]
    and redis.call('HGET', KEYS[1], 'attempt') == ARGV[2] then
  redis.call('HSET', KEYS[1], 'until', ARGV[3])
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
  return 1
end
return 0
