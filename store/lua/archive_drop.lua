-- Drop a game's compacted log from Redis once the archive tier holds a verified copy of it:
-- only while KEYS[1] still holds exactly ARGV[1], the blob that was copied and verified.
-- Returns "dropped", "gone" (no blob: dropped before) or "changed" (another blob: kept).
local held = redis.call("GET", KEYS[1])
if not held then
  return "gone"
end
if held ~= ARGV[1] then
  return "changed"
end
redis.call("DEL", KEYS[1])
return "dropped"
