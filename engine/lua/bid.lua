-- A person's bid: costs one bid credit from the balance (docs/rules.md#bidding), within the
-- fair-play rules and the person's own limits (shared/rules.lua).
-- KEYS: auction, user, recent bids, outbox, bidders (a set).
-- ARGV: auctionId, userId, timerMs, minIntervalMs, recentMax, base.
-- Returns place_bid's reply (shared/bid.lua) or {'err', reason}.
local now, a = open_bid(KEYS[1], ARGV[2])
if not now then return a end
local u, day, count = open_person(ARGV[6], KEYS[2], ARGV[2], a, KEYS[5], now, ARGV[4] + 0)
if not u then return day end
local left = u[1] + 0
if left < 1 then return {'err', 'insufficient_bids'} end
local balance = string.format('%d', left - 1)
redis.call('HSET', KEYS[2], 'bal', balance, 'lb', string.format('%d', now), 'dd', day, 'dc', count)
return place_bid(KEYS[1], KEYS[3], KEYS[4], KEYS[5], now, a, {auction = ARGV[1],
  bidder = ARGV[2], name = u[3] or '', bot = '0', debit = '1', auto = '0', kind = 'bid',
  balance = balance,
  timer = ARGV[3] + 0, kept = ARGV[5] + 0})
