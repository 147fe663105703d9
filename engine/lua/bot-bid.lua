-- A bot's bid: no debit, never over its limit, never outbidding itself, and like anyone never
-- joining a locked auction (its `lockAt` passed) it has not bid on (shared/rules.lua).
-- KEYS: auction, bot counts (bids per bot on the auction), recent bids, outbox, bidders (a set).
-- ARGV: auctionId, bidder (`bot:<id>`), botName, botLimit (0 = none), timerMs, recentMax, kind
-- (the record's: 'bot' while house bids are disclosed, else 'bid'; docs/fair-play.md).
-- Returns place_bid's reply (shared/bid.lua) or {'err', reason}.
local now, a = open_bid(KEYS[1], ARGV[2])
if not now then return a end
if a[8] and now >= a[8] + 0 and redis.call('SISMEMBER', KEYS[5], ARGV[2]) == 0 then
  return {'err', 'auction_locked'}
end
local limit = tonumber(ARGV[4])
local count = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')
if limit > 0 and count >= limit then return {'err', 'bot_limit_reached'} end
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('HINCRBY', KEYS[1], 'botBids', 1)
return place_bid(KEYS[1], KEYS[3], KEYS[4], KEYS[5], now, a, {auction = ARGV[1],
  bidder = ARGV[2], name = ARGV[3], bot = '1', debit = '0', auto = '0', kind = ARGV[7],
  balance = '-1',
  timer = ARGV[5] + 0, kept = ARGV[6] + 0})
