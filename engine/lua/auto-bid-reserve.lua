-- Moves bids from the balance into the user's auto-bidder's budget for an auction that has not
-- finished (docs/decisions/015-auto-bidder.md), unless the fair-play rules or the person's own
-- limits (shared/rules.lua) would refuse its bids now. An auction's budgets live in one hash,
-- `ab:<auctionId>`: `r:<userId>` is what is left of the user's reserve, `p:<userId>` how many
-- bids it placed. The set `abidx` lists auctions that hold budgets, so the worker finds them
-- without asking Postgres. KEYS: auction, user, budgets, index, outbox, bidders.
-- ARGV: auctionId, userId, bids (> 0), base. Returns {'ok', entry id, balance, left, placed}.
local now = now_ms()
local a = redis.call('HMGET', KEYS[1], 'status', 'beg', 'lockAt')
if not a[1] then return {'err', 'auction_not_found'} end
if a[1] == 'finished' then return {'err', 'auction_ended'} end
local u = redis.call('HMGET', KEYS[2], 'bal', 'lb', 'name', 'dd', 'dc', 'lim', 'won', 'ph')
if not u[1] then return {'err', 'user_not_loaded'} end
local lock_at = nil
if a[1] == 'live' then lock_at = a[3] end
local day, count = fair_play(ARGV[4], ARGV[2], u, a[2], lock_at, KEYS[6], now)
if not day then return count end
local bids = tonumber(ARGV[3])
local balance = tonumber(u[1])
if balance < bids then return {'err', 'insufficient_bids'} end
balance = balance - bids
redis.call('HSET', KEYS[2], 'bal', balance)
local left = redis.call('HINCRBY', KEYS[3], 'r:' .. ARGV[2], bids)
local placed = redis.call('HGET', KEYS[3], 'p:' .. ARGV[2]) or '0'
redis.call('SADD', KEYS[4], ARGV[1])
local id = redis.call('XADD', KEYS[5], '*', 'type', 'autobid', 'kind', 'reserve',
  'auction', ARGV[1], 'user', ARGV[2], 'amount', -bids, 'balance', balance, 'at', now)
return {'ok', id, tostring(balance), tostring(left), placed}
