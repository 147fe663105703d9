-- A prebid on an upcoming auction: one per user, costs one bid credit.
-- KEYS: auction, user, prebids (sorted set, score = order placed), outbox.
-- ARGV: auctionId, userId.
-- Returns {'ok', entry id, balance, prebids, now} or {'err', reason}.
local now = now_ms()
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'err', 'auction_not_found'} end
if status ~= 'upcoming' then return {'err', 'auction_not_upcoming'} end
if redis.call('ZSCORE', KEYS[3], ARGV[2]) then return {'err', 'already_prebid'} end
local u = redis.call('HMGET', KEYS[2], 'bal', 'name')
if not u[1] then return {'err', 'user_not_loaded'} end
local balance = tonumber(u[1])
if balance < 1 then return {'err', 'insufficient_bids'} end
balance = balance - 1
redis.call('HSET', KEYS[2], 'bal', balance)
local order = redis.call('HINCRBY', KEYS[1], 'pbseq', 1)
redis.call('ZADD', KEYS[3], order, ARGV[2])
local count = redis.call('HINCRBY', KEYS[1], 'prebids', 1)
local id = redis.call('XADD', KEYS[4], '*', 'type', 'prebid', 'auction', ARGV[1],
  'bidder', ARGV[2], 'name', u[2] or '', 'balance', balance, 'at', now)
return {'ok', id, tostring(balance), tostring(count), tostring(now)}
