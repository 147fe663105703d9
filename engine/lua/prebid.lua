-- A prebid on an upcoming auction: one per user, costs one bid credit, within the fair-play rules
-- and the person's own limits (shared/rules.lua; a prebid counts in the day it is placed).
-- KEYS: auction, user, prebids (sorted set, score = order placed), outbox.
-- ARGV: auctionId, userId, base.
-- Returns {'ok', entry id, balance, prebids, now} or {'err', reason}.
local now = now_ms()
local a = redis.call('HMGET', KEYS[1], 'status', 'beg')
if not a[1] then return {'err', 'auction_not_found'} end
if a[1] ~= 'upcoming' then return {'err', 'auction_not_upcoming'} end
if redis.call('ZSCORE', KEYS[3], ARGV[2]) then return {'err', 'already_prebid'} end
local u = redis.call('HMGET', KEYS[2], 'bal', 'lb', 'name', 'dd', 'dc', 'lim', 'won', 'ph')
if not u[1] then return {'err', 'user_not_loaded'} end
local balance = tonumber(u[1])
if balance < 1 then return {'err', 'insufficient_bids'} end
local day, count = fair_play(ARGV[3], ARGV[2], u, a[2], nil, nil, now)
if not day then return count end
balance = balance - 1
redis.call('HSET', KEYS[2], 'bal', balance, 'dd', day, 'dc', count + 1)
local order = redis.call('HINCRBY', KEYS[1], 'pbseq', 1)
redis.call('ZADD', KEYS[3], order, ARGV[2])
local prebids = redis.call('HINCRBY', KEYS[1], 'prebids', 1)
local id = redis.call('XADD', KEYS[4], '*', 'type', 'prebid', 'auction', ARGV[1],
  'bidder', ARGV[2], 'name', u[3] or '', 'balance', balance, 'at', now)
return {'ok', id, tostring(balance), tostring(prebids), tostring(now)}
