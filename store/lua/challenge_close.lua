-- One change of an open challenge: accept, decline, cancel or expire. Exactly one change
-- that closes a challenge wins; the others find it closed.
-- KEYS[1] the record (alone: the indexes around it live in other slots, and the caller
-- takes a closed challenge out of them after this script, store.challenges.records).
-- ARGV[1] action, ARGV[2] actor (folded name), ARGV[3] now (ms), ARGV[4] reason or game id,
-- ARGV[5] how long the closed record is kept (ms). A challenge with no account invitee
-- (built-in bots only) is accepted by its challenger; an accepted one is marked `pending`
-- until its game is confirmed made.
-- Returns {'ok', <status after>, <accepted_by>} or {'missing'} / {'closed', <status>} /
-- {'forbidden'} / {'already'}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
local status = redis.call('HGET', KEYS[1], 'status')
-- a challenge still being opened may only be cancelled (replaced by the challenger's next)
if status ~= 'open' and not (status == 'reserving' and ARGV[1] == 'cancel') then
  return {'closed', status}
end
local action, actor, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local record = redis.call('HMGET', KEYS[1], 'challenger', 'invitees', 'accepted_by', 'expires_at')
local challenger, accepted = record[1], record[3] or ''
local expires = tonumber(record[4])
local function member(list, name)
  for item in string.gmatch(list, '[^,]+') do
    if item == name then return true end
  end
  return false
end
local function close(new_status)
  redis.call('HSET', KEYS[1], 'status', new_status, 'closed_at', now)
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]))
  return {'ok', new_status, accepted}
end
if expires <= now then
  if action == 'expire' then
    return close('expired')
  end
  close('expired')
  return {'closed', 'expired', 'now'}
end
if action == 'expire' then
  return {'closed', 'open'}
elseif action == 'cancel' then
  if actor ~= challenger then return {'forbidden'} end
  return close('cancelled')
elseif action == 'decline' then
  if not member(record[2], actor) then return {'forbidden'} end
  redis.call('HSET', KEYS[1], 'decline_reason', ARGV[4], 'declined_by', actor)
  return close('declined')
elseif action == 'accept' then
  if record[2] ~= '' or actor ~= challenger then
    if not member(record[2], actor) then return {'forbidden'} end
    if member(accepted, actor) then return {'already'} end
    if accepted == '' then accepted = actor else accepted = accepted .. ',' .. actor end
    redis.call('HSET', KEYS[1], 'accepted_by', accepted)
  end
  for item in string.gmatch(record[2], '[^,]+') do
    if not member(accepted, item) then
      return {'ok', 'open', accepted}
    end
  end
  redis.call('HSET', KEYS[1], 'game_id', ARGV[4], 'pending', '1')
  return close('accepted')
end
return {'forbidden'}
