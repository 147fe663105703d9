-- A bid of the auto-bidder (docs/decisions/015-auto-bidder.md): the same rules as a person's
-- bid, paid from the auto-bid budget reserved earlier, so the balance stays as it is.
-- KEYS: auction, user, recent bids, outbox, bidders (a set), auto-bid budgets.
-- ARGV: auctionId, userId, timerMs, minIntervalMs, recentMax, base.
-- Returns place_bid's reply (shared/bid.lua) or {'err', reason}.
local now, a = open_bid(KEYS[1], ARGV[2])
if not now then return a end
local u, day, count = open_person(ARGV[6], KEYS[2], ARGV[2], a, KEYS[5], now, ARGV[4] + 0)
if not u then return day end
local field = 'r:' .. ARGV[2]
if tonumber(redis.call('HGET', KEYS[6], field) or '0') < 1 then return {'err', 'no_budget'} end
redis.call('HINCRBY', KEYS[6], field, -1)
redis.call('HINCRBY', KEYS[6], 'p:' .. ARGV[2], 1)
redis.call('HSET', KEYS[2], 'bal', u[1], 'lb', string.format('%d', now), 'dd', day, 'dc', count)
return place_bid(KEYS[1], KEYS[3], KEYS[4], KEYS[5], now, a, {auction = ARGV[1],
  bidder = ARGV[2], name = u[3] or '', bot = '0', debit = '0', auto = '1', kind = 'autobid',
  balance = u[1],
  timer = ARGV[3] + 0, kept = ARGV[5] + 0})
