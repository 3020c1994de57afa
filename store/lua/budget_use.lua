-- A charge record KEYS[1] (hash: charged_ms, used_ms, overrun_ms, counters, payer, limits,
-- settled): add ARGV[1] ms used. What is used beyond the estimate charged up front is due
-- now (overrun_ms counts what was made due already); with ARGV[2] == '1' settle it once.
-- Returns {} when there is no record, else {settled now (0/1), charged_ms, used_ms,
-- overrun_ms, due_ms, counters, payer, limits}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
local used = redis.call('HINCRBY', KEYS[1], 'used_ms', tonumber(ARGV[1]))
local charged = tonumber(redis.call('HGET', KEYS[1], 'charged_ms') or '0')
local overrun = tonumber(redis.call('HGET', KEYS[1], 'overrun_ms') or '0')
local due = math.max(0, used - charged) - overrun
if due > 0 then
  overrun = redis.call('HINCRBY', KEYS[1], 'overrun_ms', due)
else
  due = 0
end
local settled = 0
if ARGV[2] == '1' and redis.call('HSETNX', KEYS[1], 'settled', '1') == 1 then
  settled = 1
end
return {
  settled, charged, used, overrun, due,
  redis.call('HGET', KEYS[1], 'counters') or '[]',
  redis.call('HGET', KEYS[1], 'payer') or '',
  redis.call('HGET', KEYS[1], 'limits') or '[]',
}
