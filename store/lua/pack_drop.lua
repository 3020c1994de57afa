-- Compaction, step 2: once the compacted blob is written, drop the live list and the keys
-- the blob replaces (token hashes, recorded answers), the live game's snapshot and the answers
-- derived from its log (built again from the blob when asked for).
-- KEYS[1] log list, KEYS[2] compacted blob, KEYS[3] tokens hash, KEYS[4] idempotency hash,
-- KEYS[5] snapshot, KEYS[6] derived answers
-- ARGV[1] the version the blob holds
-- Returns "dropped", "missing" (no blob: nothing dropped), or "moved" (the list is longer
-- or shorter than the blob: nothing dropped).
if redis.call("EXISTS", KEYS[2]) == 0 then
  return "missing"
end
local length = redis.call("LLEN", KEYS[1])
if length ~= 0 and length ~= tonumber(ARGV[1]) then
  return "moved"
end
redis.call("DEL", KEYS[1], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
return "dropped"
