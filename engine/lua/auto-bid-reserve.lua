-- Moves bids from the balance into the user's auto-bid budget for an auction that has not
-- finished (docs/decisions/015-auto-bidder.md). An auction's budgets live in one hash,
-- `ab:<auctionId>`: `r:<userId>` is what is left of the user's reserve, `p:<userId>` how many
-- bids it placed. The set `abidx` lists auctions that hold budgets, so the worker finds them
-- without asking Postgres. KEYS: auction, user, budgets, index, outbox.
-- ARGV: auctionId, userId, bids (> 0). Returns {'ok', entry id, balance, left, placed}.
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'err', 'auction_not_found'} end
if status == 'finished' then return {'err', 'auction_ended'} end
local bal = redis.call('HGET', KEYS[2], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
local bids = tonumber(ARGV[3])
local balance = tonumber(bal)
if balance < bids then return {'err', 'insufficient_bids'} end
balance = balance - bids
redis.call('HSET', KEYS[2], 'bal', balance)
local left = redis.call('HINCRBY', KEYS[3], 'r:' .. ARGV[2], bids)
local placed = redis.call('HGET', KEYS[3], 'p:' .. ARGV[2]) or '0'
redis.call('SADD', KEYS[4], ARGV[1])
local id = redis.call('XADD', KEYS[5], '*', 'type', 'autobid', 'kind', 'reserve',
  'auction', ARGV[1], 'user', ARGV[2], 'amount', -bids, 'balance', balance, 'at', now_ms())
return {'ok', id, tostring(balance), tostring(left), placed}
