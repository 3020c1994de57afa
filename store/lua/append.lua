-- Atomic append to one game's log (all keys passed in, never built here).
-- KEYS[1] log list, KEYS[2] idempotency hash, KEYS[3] tokens hash
-- KEYS[4] (optional) a request counter gating the append (standalone Redis only)
-- ARGV[1] expected version (the log's length before this batch)
-- ARGV[2] idempotency field ("" for none), ARGV[3] answer to record under it
-- ARGV[4] seat whose token hash must be ARGV[5] ("" for no check)
-- ARGV[6] counter expiry (s), ARGV[7] highest count allowed (both "" without KEYS[4])
-- ARGV[8] number of entries n, ARGV[9 .. 8+n] the entries
-- ARGV[9+n ..] pairs of (seat, token hash) to record
-- Returns {status, value, count}: count is the counter after this request (-1 without one);
-- {"limited", 0} | {"unauthorized", 0} | {"dup", first answer} |
-- {"conflict", current version} | {"ok", new version}
local count = -1
if KEYS[4] then
  count = redis.call("INCRBY", KEYS[4], 1)
  if count == 1 then
    redis.call("EXPIRE", KEYS[4], ARGV[6])
  end
  if count > tonumber(ARGV[7]) then
    return {"limited", 0, count}
  end
end
if ARGV[4] ~= "" and redis.call("HGET", KEYS[3], ARGV[4]) ~= ARGV[5] then
  return {"unauthorized", 0, count}
end
if ARGV[2] ~= "" then
  local first = redis.call("HGET", KEYS[2], ARGV[2])
  if first then
    return {"dup", first, count}
  end
end
local current = redis.call("LLEN", KEYS[1])
if current ~= tonumber(ARGV[1]) then
  return {"conflict", current, count}
end
local n = tonumber(ARGV[8])
local version = current
for i = 9, 8 + n do
  version = redis.call("RPUSH", KEYS[1], ARGV[i])
end
for i = 9 + n, #ARGV, 2 do
  redis.call("HSET", KEYS[3], ARGV[i], ARGV[i + 1])
end
if ARGV[2] ~= "" then
  redis.call("HSET", KEYS[2], ARGV[2], ARGV[3])
end
return {"ok", version, count}
