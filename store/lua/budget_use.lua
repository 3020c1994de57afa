-- A charge record KEYS[1] (hash: charged_ms, used_ms, counters, settled): add ARGV[1] ms
-- used; with ARGV[2] == '1' settle it once. Returns {} when there is no record or it was
-- settled already (or is not settled now), else {charged_ms, used_ms, counters}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
local used = redis.call('HINCRBY', KEYS[1], 'used_ms', tonumber(ARGV[1]))
if ARGV[2] ~= '1' or redis.call('HSETNX', KEYS[1], 'settled', '1') == 0 then
  return {}
end
local charged = redis.call('HGET', KEYS[1], 'charged_ms') or '0'
local counters = redis.call('HGET', KEYS[1], 'counters') or '[]'
return {charged, tostring(used), counters}
