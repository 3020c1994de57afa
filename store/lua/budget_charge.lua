-- Charge ARGV[1] ms of bot CPU to every counter in KEYS (one per budget limit of a payer),
-- all or nothing. ARGV[2k] is limit k's amount in ms, ARGV[2k+1] its counter's TTL (s).
-- Returns {1, used_1, ..., used_n} after charging, or {0, used_1, ..., used_n} unchanged
-- when the charge would take any counter over its amount. With ARGV[2n+2] == '1' the charge
-- is made even over the amounts (CPU already spent: store.budget.BudgetStore.spend).
local cost = tonumber(ARGV[1])
local used = {}
local fits = 1
for i, key in ipairs(KEYS) do
  used[i] = tonumber(redis.call('GET', key) or '0')
  if used[i] + cost > tonumber(ARGV[2 * i]) then
    fits = 0
  end
end
if ARGV[2 * #KEYS + 2] == '1' then
  fits = 1
end
if fits == 1 and cost > 0 then
  for i, key in ipairs(KEYS) do
    used[i] = redis.call('INCRBY', key, cost)
    if redis.call('TTL', key) < 0 then
      redis.call('EXPIRE', key, tonumber(ARGV[2 * i + 1]))
    end
  end
end
local reply = {fits}
for i = 1, #used do
  reply[i + 1] = used[i]
end
return reply
