-- The user stops their auto-bidder: what is left of the budget goes back to the balance.
-- KEYS: user, budgets, outbox. ARGV: auctionId, userId.
-- Returns {'ok', entry id, balance, returned} or {'none', '', balance} without a budget.
local bal = redis.call('HGET', KEYS[1], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
local field = 'r:' .. ARGV[2]
local left = redis.call('HGET', KEYS[2], field)
if not left then return {'none', '', bal} end
redis.call('HDEL', KEYS[2], field)
local amount = tonumber(left)
local balance = redis.call('HINCRBY', KEYS[1], 'bal', amount)
local id = redis.call('XADD', KEYS[3], '*', 'type', 'autobid', 'kind', 'return',
  'auction', ARGV[1], 'user', ARGV[2], 'amount', amount, 'balance', balance, 'at', now_ms())
return {'ok', id, tostring(balance), tostring(amount)}
