-- The last step of opening a challenge: its record, written as `reserving` while the
-- accounts' sides were taken, becomes `open` for good, unless the challenger's next
-- challenge to the same account cancelled it meanwhile (it replaces it).
-- KEYS[1] the record; ARGV the record's field/value pairs (without its status).
-- Returns 'open', or the status it found (the record stays as it is).
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= 'reserving' then
  return status
end
redis.call('HSET', KEYS[1], 'status', 'open', unpack(ARGV))
redis.call('PERSIST', KEYS[1])
return 'open'
