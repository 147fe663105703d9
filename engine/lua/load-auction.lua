-- Puts an auction from Postgres into Redis. An upcoming auction is (re)written and scheduled;
-- a live or finished one already in Redis keeps its state (only its display fields change); a
-- live one missing from Redis (Redis lost) comes back with a fresh timer, and each bot's bids
-- in it, so that a bot's limit still counts the bids it made before. An auction missing from
-- Redis also gets back what people paid for on it (docs/decisions/040-holds-rebuilt-from-postgres.md):
-- an upcoming one its prebids in the order placed, both its auto-bid budgets; never over what
-- Redis holds (a prebid or budget already there stays as it is), and never while the auction
-- is being deleted (remove-auction.lua's marker).
-- KEYS: auction, upcoming, ending, bidders, bot counts, prebids, auto-bid budgets, auto-bid
-- index, deletion marker. ARGV: auctionId, status, price, increment, startMs, bids, last,
-- lastName, lastBot, meta JSON, timerMs, bot bids, b, p, n, beginner ('1' or '0'), lockAt (ms,
-- '' for none: when the auction closes to new bidders, shared/rules.lua), then b pairs of bot bidder and its
-- bids, p prebidders in order, n triples of auto-bidder, bids left and bids placed, then
-- everyone who has bid. Returns the status it has now, or 'skipped'.
local current = redis.call('HGET', KEYS[1], 'status')
if current == 'live' or current == 'finished' then
  redis.call('HSET', KEYS[1], 'meta', ARGV[10])
  return current
end
if redis.call('EXISTS', KEYS[9]) == 1 then return 'skipped' end
if ARGV[2] ~= 'upcoming' and ARGV[2] ~= 'live' then return 'skipped' end
local firstPrebid = 18 + 2 * tonumber(ARGV[13])
local firstBudget = firstPrebid + tonumber(ARGV[14])
local firstBidder = firstBudget + 3 * tonumber(ARGV[15])
if not current then
  for i = firstBudget, firstBidder - 1, 3 do
    redis.call('HSETNX', KEYS[7], 'r:' .. ARGV[i], ARGV[i + 1])
    redis.call('HSETNX', KEYS[7], 'p:' .. ARGV[i], ARGV[i + 2])
  end
  if firstBidder > firstBudget then redis.call('SADD', KEYS[8], ARGV[1]) end
end
-- The fair-play rules (shared/rules.lua) are set while upcoming, or brought back with the auction.
if ARGV[16] == '1' then redis.call('HSET', KEYS[1], 'beg', '1') else redis.call('HDEL', KEYS[1], 'beg') end
if ARGV[17] ~= '' then redis.call('HSET', KEYS[1], 'lockAt', ARGV[17]) else redis.call('HDEL', KEYS[1], 'lockAt') end
if ARGV[2] == 'upcoming' then
  redis.call('HSET', KEYS[1], 'status', 'upcoming', 'price', ARGV[3], 'inc', ARGV[4],
    'start', ARGV[5], 'meta', ARGV[10], 'bids', ARGV[6])
  if current then
    redis.call('HSETNX', KEYS[1], 'prebids', '0')
  else
    local seq = tonumber(redis.call('ZRANGE', KEYS[6], -1, -1, 'WITHSCORES')[2] or '0')
    for i = firstPrebid, firstBudget - 1 do
      if not redis.call('ZSCORE', KEYS[6], ARGV[i]) then
        seq = seq + 1
        redis.call('ZADD', KEYS[6], seq, ARGV[i])
      end
    end
    redis.call('HSET', KEYS[1], 'prebids', redis.call('ZCARD', KEYS[6]), 'pbseq', seq)
  end
  redis.call('ZADD', KEYS[2], tonumber(ARGV[5]), ARGV[1])
  return 'upcoming'
end
local deadline = now_ms() + tonumber(ARGV[11])
redis.call('HSET', KEYS[1], 'status', 'live', 'price', ARGV[3], 'inc', ARGV[4],
  'start', ARGV[5], 'meta', ARGV[10], 'bids', ARGV[6], 'last', ARGV[7], 'lastName', ARGV[8],
  'lastBot', ARGV[9], 'deadline', deadline, 'botBids', ARGV[12])
redis.call('DEL', KEYS[5])
for i = 18, firstPrebid - 1, 2 do redis.call('HSET', KEYS[5], ARGV[i], ARGV[i + 1]) end
for i = firstBidder, #ARGV do redis.call('SADD', KEYS[4], ARGV[i]) end
redis.call('ZADD', KEYS[3], deadline, ARGV[1])
return 'live'
