-- Adds bids to a balance exactly once per reference (a top-up, the registration gift, a refund).
-- KEYS: user, references, outbox. ARGV: userId, amount (> 0), reason, reference, auctionId or ''.
-- Returns {'ok', entry id, balance}, {'dup', '', balance} or {'err', 'user_not_loaded'}.
local bal = redis.call('HGET', KEYS[1], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
if redis.call('SADD', KEYS[2], ARGV[4]) == 0 then return {'dup', '', bal} end
local balance = redis.call('HINCRBY', KEYS[1], 'bal', tonumber(ARGV[2]))
local id = redis.call('XADD', KEYS[3], '*', 'type', 'balance', 'user', ARGV[1], 'amount', ARGV[2],
  'balance', balance, 'reason', ARGV[3], 'reference', ARGV[4], 'auction', ARGV[5], 'at', now_ms())
return {'ok', id, tostring(balance)}
