-- Takes back, once per reference, the bids a refunded payment credited
-- (docs/payments.md "Refunds Freedom Pay reports"): as many as the balance holds now, up to
-- `most`, never below 0. Its ledger row (the amount taken, negative, or 0) is what a repeat
-- reads to know what the first call took.
-- KEYS: user, references, outbox. ARGV: userId, most (> 0), reason, reference.
-- Returns {'ok', entry id, balance, taken}, {'dup', '', balance} or {'err', 'user_not_loaded'}.
local bal = redis.call('HGET', KEYS[1], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
if redis.call('SADD', KEYS[2], ARGV[4]) == 0 then return {'dup', '', bal} end
local taken = math.max(0, math.min(tonumber(bal), tonumber(ARGV[2])))
local balance = redis.call('HINCRBY', KEYS[1], 'bal', 0 - taken)
local id = redis.call('XADD', KEYS[3], '*', 'type', 'balance', 'user', ARGV[1], 'amount',
  0 - taken, 'balance', balance, 'reason', ARGV[3], 'reference', ARGV[4], 'auction', '',
  'at', now_ms())
return {'ok', id, tostring(balance), tostring(taken)}
