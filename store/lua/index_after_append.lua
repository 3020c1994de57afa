-- Index writes of one game's new version, made only if that version's append happened.
-- KEYS[1] the game's log; KEYS[2 ..] the index keys the writes name (all passed in)
-- ARGV[1] the version the writes describe, ARGV[2] its entry as appended (the batch's last)
-- ARGV[3 ..] the writes, each: command (HSET, ZADD, ZREM, or PUBLISH of a notification),
--   key position in KEYS (0 for PUBLISH: a channel is no key), number of arguments n, then
--   its n arguments
-- Returns 1 when written, 0 when the log does not hold that entry (the append was refused).
if redis.call("LINDEX", KEYS[1], tonumber(ARGV[1]) - 1) ~= ARGV[2] then
  return 0
end
local allowed = {HSET = true, ZADD = true, ZREM = true, PUBLISH = true}
local i = 3
while i <= #ARGV do
  local command, key, n = ARGV[i], KEYS[tonumber(ARGV[i + 1])], tonumber(ARGV[i + 2])
  if not allowed[command] then
    return redis.error_reply("index writes are HSET, ZADD, ZREM or PUBLISH only")
  end
  if key then
    redis.call(command, key, unpack(ARGV, i + 3, i + 2 + n))
  else
    redis.call(command, unpack(ARGV, i + 3, i + 2 + n))
  end
  i = i + 3 + n
end
return 1
