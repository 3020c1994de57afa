-- Compaction, step 1: write a finished game's compacted log beside its live list.
-- KEYS[1] log list, KEYS[2] compacted blob
-- ARGV[1] the version the blob holds, ARGV[2] the log's last entry, ARGV[3] the blob
-- Returns "written", "exists" (a blob was written before), or "moved" (the log is no longer
-- the one the blob was built from: nothing written).
if redis.call("EXISTS", KEYS[2]) == 1 then
  return "exists"
end
if redis.call("LLEN", KEYS[1]) ~= tonumber(ARGV[1]) then
  return "moved"
end
if redis.call("LINDEX", KEYS[1], -1) ~= ARGV[2] then
  return "moved"
end
redis.call("SET", KEYS[2], ARGV[3])
return "written"
