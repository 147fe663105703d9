-- Removes an auction (admin delete), but only while it is as the admin saw it: an upcoming one
-- that started in the meantime (its prebids turned into bids) or a finished one that came back
-- is left alone. Its prebids and auto-bid budgets go with it: what they owe people is paid back
-- from Postgres once the outbox has written every entry up to this step
-- (docs/decisions/041-deleted-auction-refunds-from-postgres.md). A marker kept for `ms` stops
-- the auction from being loaded again meanwhile. KEYS: auction, upcoming, ending, recent,
-- prebids, bot counts, bidders, auto-bid budgets, auto-bid index, deletion marker, outbox.
-- ARGV: id, status seen, ms. Returns {'changed', status} untouched, or {'ok', the status it
-- had ('' when not held), the newest outbox entry id ('' when none)}.
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= ARGV[2] then return {'changed', status} end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[1], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
redis.call('SREM', KEYS[9], ARGV[1])
redis.call('SET', KEYS[10], '1', 'PX', tonumber(ARGV[3]))
local newest = redis.call('XREVRANGE', KEYS[11], '+', '-', 'COUNT', 1)[1]
return {'ok', status or '', newest and newest[1] or ''}
