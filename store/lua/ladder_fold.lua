-- Store ratings folded from the ladder's log, only if no one folded since they were read.
-- KEYS[1] the fold cursor; KEYS[2 ..] the ratings and board keys the writes name
-- ARGV[1] the cursor the ratings were read at ("" to write whatever it is: a rebuild),
-- ARGV[2] the new cursor, ARGV[3 ..] the writes, each: command (DEL, HSET or ZADD), key
--   position in KEYS, number of arguments n, then its n arguments
-- Returns 1 when written, 0 when the cursor moved on (read again and fold again).
local cursor = redis.call("GET", KEYS[1]) or "0"
if ARGV[1] ~= "" and cursor ~= ARGV[1] then
  return 0
end
local allowed = {DEL = true, HSET = true, ZADD = true}
local i = 3
while i <= #ARGV do
  local command, key, n = ARGV[i], KEYS[tonumber(ARGV[i + 1])], tonumber(ARGV[i + 2])
  if not allowed[command] then
    return redis.error_reply("ladder fold writes are DEL, HSET or ZADD only")
  end
  redis.call(command, key, unpack(ARGV, i + 3, i + 2 + n))
  i = i + 3 + n
end
redis.call("SET", KEYS[1], ARGV[2])
return 1
