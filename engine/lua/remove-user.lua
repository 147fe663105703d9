-- Takes a deleted account out of the engine in one atomic step
-- (docs/decisions/029-nothing-paid-disappears.md): its balance goes and a marker takes its
-- place for `ms`, so no bid, prebid or credit finds it and it cannot be loaded again from a
-- Postgres row about to go; its prebids leave every upcoming auction (their count drops, the
-- start turns none of them into bids) and its auto-bidders' budgets leave every auction, with
-- no one to refund. KEYS: user, upcoming, auto-bid index. ARGV: base, userId, ms.
-- Returns {n, n auctions it had prebids on with their new prebid counts, auctions it had
-- auto-bidders on}.
local base = ARGV[1]
local user = ARGV[2]
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'gone', '1')
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
local prebids = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if redis.call('ZREM', base .. 'pb:' .. id, user) == 1 then
    prebids[#prebids + 1] = id
    prebids[#prebids + 1] = tostring(redis.call('HINCRBY', base .. 'a:' .. id, 'prebids', -1))
  end
end
local out = {tostring(#prebids / 2)}
for _, value in ipairs(prebids) do out[#out + 1] = value end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  if redis.call('HDEL', base .. 'ab:' .. id, 'r:' .. user) == 1 then out[#out + 1] = id end
end
return out
