-- Atomic append to one game's log (all keys passed in, never built here).
-- KEYS[1] log list, KEYS[2] idempotency hash, KEYS[3] tokens hash, KEYS[4] compacted blob,
-- KEYS[5] snapshot
-- ARGV[1] expected version (the log's length before this batch)
-- ARGV[2] idempotency field ("" for none), ARGV[3] answer to record under it
-- ARGV[4] seat whose token hash must be ARGV[5] ("" for no check)
-- ARGV[6] number of entries n, ARGV[7 .. 6+n] the entries
-- ARGV[7+n] the game's snapshot after the batch ("" for none: the old one stays)
-- ARGV[8+n ..] pairs of (seat, token hash) to record
-- Returns {status, value}:
-- {"unauthorized", 0} | {"dup", first answer} | {"conflict", current version} |
-- {"ok", new version}
-- A compacted game (a finished one) takes no entry: a conflict at its version.
local packed = redis.call("GETRANGE", KEYS[4], 0, 31)
if packed ~= "" then
  return {"conflict", tonumber(string.match(packed, "^KLP1:(%d+):"))}
end
if ARGV[4] ~= "" and redis.call("HGET", KEYS[3], ARGV[4]) ~= ARGV[5] then
  return {"unauthorized", 0}
end
if ARGV[2] ~= "" then
  local first = redis.call("HGET", KEYS[2], ARGV[2])
  if first then
    -- Written again (unchanged) so that a WAIT behind this call also covers the first
    -- append, which another connection made and may not have replicated yet.
    redis.call("HSET", KEYS[2], ARGV[2], first)
    return {"dup", first}
  end
end
local current = redis.call("LLEN", KEYS[1])
if current ~= tonumber(ARGV[1]) then
  return {"conflict", current}
end
local n = tonumber(ARGV[6])
local version = current
for i = 7, 6 + n do
  version = redis.call("RPUSH", KEYS[1], ARGV[i])
end
if ARGV[7 + n] ~= "" then
  redis.call("SET", KEYS[5], ARGV[7 + n])
end
for i = 8 + n, #ARGV, 2 do
  redis.call("HSET", KEYS[3], ARGV[i], ARGV[i + 1])
end
if ARGV[2] ~= "" then
  redis.call("HSET", KEYS[2], ARGV[2], ARGV[3])
end
return {"ok", version}
