-- Extend a claim: the score of ARGV[1] in KEYS[1] becomes ARGV[3] only while it is still the
-- claim's end ARGV[2] (a newer version's index write, or another claim, has not replaced it).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
