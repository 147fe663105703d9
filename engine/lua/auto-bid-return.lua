-- Gives every budget left on an auction back to its owner, once the auction has finished or
-- is gone (deleted). A second run finds nothing. Budgets of users whose balance is not in Redis
-- stay until the caller has loaded them, or are dropped when ARGV[3] is '1' (the caller tried:
-- the user no longer exists). KEYS: auction, budgets, index, outbox. ARGV: auctionId, base,
-- drop. Returns {'not_finished'} or {'ok', userId, amount, balance, ..., '|', missing users...}.
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= 'finished' then return {'not_finished'} end
local now = now_ms()
local out = {'ok'}
local missing = {}
local fields = redis.call('HGETALL', KEYS[2])
for i = 1, #fields, 2 do
  local field = fields[i]
  if string.sub(field, 1, 2) == 'r:' then
    local user = string.sub(field, 3)
    local ukey = ARGV[2] .. 'u:' .. user
    if redis.call('HEXISTS', ukey, 'bal') == 0 then
      if ARGV[3] ~= '1' then table.insert(missing, user) end
    else
      local amount = tonumber(fields[i + 1])
      local balance = redis.call('HINCRBY', ukey, 'bal', amount)
      redis.call('HDEL', KEYS[2], field)
      redis.call('XADD', KEYS[4], '*', 'type', 'autobid', 'kind', 'return', 'auction', ARGV[1],
        'user', user, 'amount', amount, 'balance', balance, 'at', now)
      table.insert(out, user)
      table.insert(out, tostring(amount))
      table.insert(out, tostring(balance))
    end
  end
end
if #missing == 0 then
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[1])
end
table.insert(out, '|')
for _, user in ipairs(missing) do table.insert(out, user) end
return out
