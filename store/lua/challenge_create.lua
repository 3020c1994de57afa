-- Open a challenge unless a limit is reached, all in one step.
-- KEYS[1] the record, KEYS[2] the expiring set, KEYS[3] the challenger's open outgoing,
-- KEYS[4] the challenger's recent challenges, KEYS[5] the webhook calls due, then for each
-- invitee its open incoming and its recent challenges (two keys each).
-- ARGV[1] now (ms), ARGV[2] expires at (ms), ARGV[3] outgoing limit, ARGV[4] incoming limit,
-- ARGV[5] the id, ARGV[6] how many webhook calls follow the fields, then the webhook call
-- members, then the record's field/value pairs.
-- Returns {1} or {0, 'out'} or {0, 'in', <invitee index, 1-based>}.
local now, expires = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then
  return {0, 'out'}
end
local invitees = (#KEYS - 5) / 2
for i = 1, invitees do
  local incoming = KEYS[5 + 2 * i - 1]
  redis.call('ZREMRANGEBYSCORE', incoming, '-inf', now)
  if redis.call('ZCARD', incoming) >= tonumber(ARGV[4]) then
    return {0, 'in', i}
  end
end
local id = ARGV[5]
local calls = tonumber(ARGV[6])
local fields = {}
for i = 7 + calls, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], expires, id)
redis.call('ZADD', KEYS[3], expires, id)
redis.call('ZADD', KEYS[4], now, id)
for i = 1, invitees do
  redis.call('ZADD', KEYS[5 + 2 * i - 1], expires, id)
  redis.call('ZADD', KEYS[5 + 2 * i], now, id)
end
for i = 7, 6 + calls do
  redis.call('ZADD', KEYS[5], now, ARGV[i])
end
return {1}
