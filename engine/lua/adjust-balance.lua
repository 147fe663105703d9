-- An admin adds bids to a balance or takes them away (docs/decisions/028-balance-adjustments.md),
-- or sets it (decision 042): the change applies to the balance as it is now, so credits and bids
-- made while the admin was looking stay, and a set is recorded as its difference from the
-- balance at this moment. Once per reference (the request's idempotency key): a repeat changes
-- nothing. Refused, with nothing changed, when the balance would fall below 0 or, by a credit,
-- rise above the maximum, or when `expected` is given and the balance is no longer that.
-- KEYS: user, references, outbox. ARGV: userId, delta (<> 0) or, with 'set', the new balance,
-- reference, adminId, note, expected balance or '', maximum balance, 'add' or 'set'.
-- Returns {outcome, entry id or '', balance} or {'err', 'user_not_loaded'}.
local bal = redis.call('HGET', KEYS[1], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
if redis.call('SISMEMBER', KEYS[2], ARGV[3]) == 1 then return {'dup', '', bal} end
local current = tonumber(bal)
local delta = tonumber(ARGV[2])
if ARGV[8] == 'set' then delta = delta - current end
if ARGV[6] ~= '' and tonumber(ARGV[6]) ~= current then return {'stale', '', bal} end
if current + delta < 0 then return {'below_zero', '', bal} end
if delta > 0 and current + delta > tonumber(ARGV[7]) then return {'above_max', '', bal} end
redis.call('SADD', KEYS[2], ARGV[3])
if delta == 0 then return {'same', '', bal} end
local balance = redis.call('HINCRBY', KEYS[1], 'bal', delta)
local id = redis.call('XADD', KEYS[3], '*', 'type', 'balance', 'user', ARGV[1], 'amount', delta,
  'balance', balance, 'reason', 'admin_adjust', 'reference', ARGV[3], 'auction', '',
  'admin', ARGV[4], 'note', ARGV[5], 'at', now_ms())
return {'ok', id, tostring(balance)}
