-- Begin a webhook call of a game's turn: KEYS[1] the game's webhook-call hash; ARGV: the
-- turn's version, now (ms), until (ms: no other call of this turn before then), the time
-- (ms) the hash expires. Refused ({0, until}) while another call of this turn runs or its
-- retry is not due, and for a turn older than the one recorded ({0, 0}); else {attempt, until}.
local version = tonumber(ARGV[1])
local recorded = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
local attempt = 1
if recorded > version then
  return {0, 0}
end
if recorded == version then
  local until_ms = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
  if until_ms > tonumber(ARGV[2]) then
    return {0, until_ms}
  end
  attempt = tonumber(redis.call('HGET', KEYS[1], 'attempt') or '0') + 1
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'attempt', attempt, 'until', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return {attempt, tonumber(ARGV[3])}
