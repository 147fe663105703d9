-- An admin ends a live auction now (docs/rules.md#auction-lifecycle); the last bidder wins, and
-- a person's win counts for the fair-play rules at once (shared/wins.lua).
-- KEYS: auction, ending, outbox. ARGV: auctionId, base, finishedTtlMs.
-- Returns {'ok', entry id, now} or {'err', reason}.
local now = now_ms()
local a = redis.call('HMGET', KEYS[1], 'status', 'price', 'last', 'lastName', 'lastBot', 'bids')
if not a[1] then return {'err', 'auction_not_found'} end
if a[1] ~= 'live' then return {'err', 'auction_not_live'} end
redis.call('HSET', KEYS[1], 'status', 'finished', 'deadline', now, 'ended', now, 'finishedAt', now)
redis.call('ZREM', KEYS[2], ARGV[1])
local id = redis.call('XADD', KEYS[3], '*', 'type', 'finish', 'auction', ARGV[1],
  'winner', a[3] or '', 'name', a[4] or '', 'bot', a[5] or '0', 'price', a[2], 'endedAt', now,
  'at', now, 'bids', a[6] or '0', 'admin', '1')
if a[3] and a[3] ~= '' and a[5] ~= '1' then record_win(ARGV[2], a[3], ARGV[1], now, now) end
expire_finished(ARGV[2], ARGV[1], tonumber(ARGV[3]))
return {'ok', id, tostring(now)}
