-- The bulk lane's fair queue (store.fair_queue): start-time fair queueing between streams.
-- KEYS: ring (zset stream key -> start tag), finish (zset stream key -> the tag its next job
-- may start at), clock (the tag last dispatched), waiting (zset job id -> when queued, ms), idle
-- (zset worker -> until ms), target (RQ's list of the bulk queue), then for 'push' the
-- stream's list and RQ's set of queues. ARGV: 'push' job_id now_ms | 'fill'.
-- A stream key is data here (a member of ring): RQ needs a standalone Redis, where a key
-- not named in KEYS is legal; every such name was built by store.keys.
local ring, finish, clock, waiting, idle, target = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]

-- Move the job of the smallest start tag onto RQ's list, only when that list is empty: RQ's
-- list never holds a job chosen before a worker was free to take it.
local function dispatch()
  if redis.call('LLEN', target) > 0 then
    return 0
  end
  for _ = 1, 64 do
    local head = redis.call('ZRANGE', ring, 0, 0, 'WITHSCORES')
    if #head == 0 then
      return 0
    end
    local stream, tag = head[1], tonumber(head[2])
    local job = redis.call('LPOP', stream)
    redis.call('SET', clock, tag)
    if redis.call('LLEN', stream) > 0 then
      redis.call('ZADD', ring, tag + 1, stream)
    else
      redis.call('ZREM', ring, stream)
      redis.call('ZADD', finish, tag + 1, stream)
    end
    redis.call('ZREMRANGEBYSCORE', finish, '-inf', tag)
    if job then
      redis.call('ZREM', waiting, job)
      redis.call('RPUSH', target, job)
      return 1
    end
  end
  return 0
end

if ARGV[1] == 'fill' then
  return dispatch()
end

local stream, job = KEYS[7], ARGV[2]
if redis.call('ZADD', waiting, 'NX', ARGV[3], job) == 0 then
  return 0
end
redis.call('RPUSH', stream, job)
redis.call('SADD', KEYS[8], target)  -- as RQ's enqueue registers its queue
if not redis.call('ZSCORE', ring, stream) then
  -- a stream that had nothing waiting starts at the clock, or later if it was served
  -- ahead of it: it cannot take more than its turn by leaving and coming back
  local now_tag = tonumber(redis.call('GET', clock) or '0')
  local ahead = tonumber(redis.call('ZSCORE', finish, stream) or now_tag)
  redis.call('ZADD', ring, math.max(now_tag, ahead), stream)
  redis.call('ZREM', finish, stream)
end
redis.call('ZREMRANGEBYSCORE', idle, '-inf', ARGV[3])
if redis.call('ZCARD', idle) > 0 then
  dispatch()  -- a worker waits: hand it work now
end
return 1
