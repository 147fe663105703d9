// The engine's Lua scripts. Each runs atomically inside Redis; Redis `TIME` is the only clock.
// Per-auction and per-user keys are derived from the shared `{prefix}:` base (engine/keys.ts),
// so every key lives in one hash slot.

const NOW = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`

/**
 * Once an auction has finished, its keys (engine/keys.ts: auction, recent bids, prebids, bot
 * counts, bidders) stay for `ms` so its page and its last updates can still be read.
 */
const EXPIRE_FINISHED = `
local function expire_finished(base, id, ms)
  for _, kind in ipairs({'a:', 'rb:', 'pb:', 'bc:', 'bd:'}) do
    redis.call('PEXPIRE', base .. kind .. id, ms)
  end
end
`

/** The fields of an auction hash that make its live state, in the order parseState reads them. */
export const STATE_FIELDS = [
  'status',
  'price',
  'inc',
  'start',
  'deadline',
  'ended',
  'last',
  'lastName',
  'lastBot',
  'bids',
  'prebids',
] as const
const luaList = (names: readonly string[]) => names.map((name) => `'${name}'`).join(', ')

/**
 * KEYS: auction, bidder (user hash, or the auction's bot-count hash for a bot), recent bids,
 * outbox, bidders (a set), auto-bid budgets (only for an auto bid).
 * ARGV: auctionId, bidderId, isBot (0/1), botName, botLimit (0 = none), timerMs,
 * minIntervalMs, recentMax, debit (0/1, 1 for people), auto (1: paid from the auto-bid budget
 * reserved earlier, so the balance stays as it is).
 *
 * The hot path of the product, so it does the least Redis work a bid needs: the deadline lives
 * in the auction hash only (the "ending" set holds a lower bound the sweeper moves on, see
 * sweepLua), every number is turned into text once, with integer formatting, and the recent-bids
 * list is trimmed only when it has grown to twice its size.
 */
export const bidLua = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local a = redis.call('HMGET', KEYS[1], 'status', 'price', 'inc', 'deadline', 'last', 'bids')
if not a[1] then return {'err', 'auction_not_found'} end
if a[1] == 'finished' then return {'err', 'auction_ended'} end
if a[1] ~= 'live' then return {'err', 'auction_not_live'} end
if now >= tonumber(a[4]) then return {'err', 'auction_ended'} end
if a[5] == ARGV[2] then return {'err', 'already_leading'} end
local fmt = string.format
local nows = fmt('%d', now)
local balance = '-1'
local name
if ARGV[3] == '0' then
  local u = redis.call('HMGET', KEYS[2], 'bal', 'lb', 'name')
  if not u[1] then return {'err', 'user_not_loaded'} end
  if u[2] and now - tonumber(u[2]) < tonumber(ARGV[7]) then return {'err', 'too_fast'} end
  balance = u[1]
  if ARGV[10] == '1' then
    local field = 'r:' .. ARGV[2]
    if tonumber(redis.call('HGET', KEYS[6], field) or '0') < 1 then return {'err', 'no_budget'} end
    redis.call('HINCRBY', KEYS[6], field, -1)
    redis.call('HINCRBY', KEYS[6], 'p:' .. ARGV[2], 1)
  elseif ARGV[9] == '1' then
    local left = tonumber(balance)
    if left < 1 then return {'err', 'insufficient_bids'} end
    balance = fmt('%d', left - 1)
  end
  redis.call('HSET', KEYS[2], 'bal', balance, 'lb', nows)
  name = u[3] or ''
else
  local limit = tonumber(ARGV[5])
  local count = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')
  if limit > 0 and count >= limit then return {'err', 'bot_limit_reached'} end
  redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
  redis.call('HINCRBY', KEYS[1], 'botBids', 1)
  name = ARGV[4]
end
local price = fmt('%d', tonumber(a[2]) + tonumber(a[3]))
local bids = fmt('%d', tonumber(a[6] or '0') + 1)
local deadline = fmt('%d', now + tonumber(ARGV[6]))
redis.call('HSET', KEYS[1], 'price', price, 'deadline', deadline, 'last', ARGV[2],
  'lastName', name, 'lastBot', ARGV[3], 'bids', bids)
local id = redis.call('XADD', KEYS[4], '*', 'type', 'bid', 'auction', ARGV[1], 'bidder', ARGV[2],
  'name', name, 'bot', ARGV[3], 'debit', ARGV[9], 'price', price, 'balance', balance, 'at', nows,
  'auto', ARGV[10] or '0')
local kept = tonumber(ARGV[8])
local listed = redis.call('LPUSH', KEYS[3], '{"id":"' .. id .. '","bidder":' .. cjson.encode(ARGV[2]) ..
  ',"name":' .. cjson.encode(name) .. ',"bot":' .. (ARGV[3] == '1' and 'true' or 'false') ..
  ',"prebid":false,"price":' .. price .. ',"at":' .. nows .. '}')
if listed > 2 * kept then redis.call('LTRIM', KEYS[3], 0, kept - 1) end
redis.call('SADD', KEYS[5], ARGV[2])
return {'ok', id, price, deadline, bids, balance, nows, name}
`

/**
 * KEYS: auction, user, prebids (sorted set, score = order placed), outbox.
 * ARGV: auctionId, userId.
 */
export const prebidLua = `${NOW}
local now = now_ms()
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'err', 'auction_not_found'} end
if status ~= 'upcoming' then return {'err', 'auction_not_upcoming'} end
if redis.call('ZSCORE', KEYS[3], ARGV[2]) then return {'err', 'already_prebid'} end
local u = redis.call('HMGET', KEYS[2], 'bal', 'name')
if not u[1] then return {'err', 'user_not_loaded'} end
local balance = tonumber(u[1])
if balance < 1 then return {'err', 'insufficient_bids'} end
balance = balance - 1
redis.call('HSET', KEYS[2], 'bal', balance)
local order = redis.call('HINCRBY', KEYS[1], 'pbseq', 1)
redis.call('ZADD', KEYS[3], order, ARGV[2])
local count = redis.call('HINCRBY', KEYS[1], 'prebids', 1)
local id = redis.call('XADD', KEYS[4], '*', 'type', 'prebid', 'auction', ARGV[1],
  'bidder', ARGV[2], 'name', u[2] or '', 'balance', balance, 'at', now)
return {'ok', id, tostring(balance), tostring(count), tostring(now)}
`

/**
 * The sweeper: starts auctions whose start time has come (their prebids become bids in the
 * order placed) and finishes those whose deadline has passed, re-checked against TIME here.
 * KEYS: upcoming, ending, outbox. ARGV: base, timerMs, recentMax, limit, finishedTtlMs.
 * Returns {now, next start or '', next deadline or '', started ids, finished ids}.
 */
export const sweepLua = `${NOW}${EXPIRE_FINISHED}
local now = now_ms()
local base = ARGV[1]
local timer = tonumber(ARGV[2])
local recentMax = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local keep = tonumber(ARGV[5])
local started = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, limit)) do
  local akey = base .. 'a:' .. id
  local a = redis.call('HMGET', akey, 'status', 'price', 'inc', 'start', 'bids')
  if a[1] ~= 'upcoming' then
    redis.call('ZREM', KEYS[1], id)
  elseif tonumber(a[4]) <= now then
    redis.call('ZREM', KEYS[1], id)
    local price = tonumber(a[2])
    local inc = tonumber(a[3])
    local conversions = {}
    local last, lastName = '', ''
    for i, uid in ipairs(redis.call('ZRANGE', base .. 'pb:' .. id, 0, -1)) do
      price = price + inc
      local name = redis.call('HGET', base .. 'u:' .. uid, 'name') or ''
      conversions[i] = {user = uid, name = name, price = price}
      last, lastName = uid, name
      redis.call('SADD', base .. 'bd:' .. id, uid)
    end
    local bids = tonumber(a[5] or '0') + #conversions
    local deadline = now + timer
    redis.call('HSET', akey, 'status', 'live', 'price', price, 'deadline', deadline, 'last', last,
      'lastName', lastName, 'lastBot', '0', 'bids', bids, 'started', now)
    redis.call('ZADD', KEYS[2], deadline, id)
    local eid = redis.call('XADD', KEYS[3], '*', 'type', 'start', 'auction', id, 'price', price,
      'deadline', deadline, 'at', now, 'conversions', #conversions == 0 and '[]' or cjson.encode(conversions))
    local rkey = base .. 'rb:' .. id
    for i, c in ipairs(conversions) do
      redis.call('LPUSH', rkey, cjson.encode({id = eid .. '-' .. i, bidder = c.user, name = c.name,
        bot = false, prebid = true, price = c.price, at = now}))
    end
    if #conversions > 0 then redis.call('LTRIM', rkey, 0, recentMax - 1) end
    table.insert(started, id)
  end
end
local finished = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit)) do
  local akey = base .. 'a:' .. id
  local a = redis.call('HMGET', akey, 'status', 'deadline', 'price', 'last', 'lastName', 'lastBot', 'bids')
  if a[1] ~= 'live' then
    redis.call('ZREM', KEYS[2], id)
  elseif tonumber(a[2]) > now then
    -- Bids moved the deadline on since this entry's score was set: schedule the real one.
    redis.call('ZADD', KEYS[2], a[2], id)
  else
    redis.call('HSET', akey, 'status', 'finished', 'ended', a[2], 'finishedAt', now)
    redis.call('ZREM', KEYS[2], id)
    redis.call('XADD', KEYS[3], '*', 'type', 'finish', 'auction', id, 'winner', a[4] or '',
      'name', a[5] or '', 'bot', a[6] or '0', 'price', a[3], 'endedAt', a[2], 'at', now,
      'bids', a[7] or '0', 'admin', '0')
    expire_finished(base, id, keep)
    table.insert(finished, id)
  end
end
local nextStart = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or ''
local nextEnd = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2] or ''
return {tostring(now), nextStart, nextEnd, table.concat(started, ','), table.concat(finished, ',')}
`

/**
 * An admin ends a live auction now (docs/rules.md#auction-lifecycle); the last bidder wins.
 * KEYS: auction, ending, outbox. ARGV: auctionId, base, finishedTtlMs.
 */
export const endLua = `${NOW}${EXPIRE_FINISHED}
local now = now_ms()
local a = redis.call('HMGET', KEYS[1], 'status', 'price', 'last', 'lastName', 'lastBot', 'bids')
if not a[1] then return {'err', 'auction_not_found'} end
if a[1] ~= 'live' then return {'err', 'auction_not_live'} end
redis.call('HSET', KEYS[1], 'status', 'finished', 'deadline', now, 'ended', now, 'finishedAt', now)
redis.call('ZREM', KEYS[2], ARGV[1])
local id = redis.call('XADD', KEYS[3], '*', 'type', 'finish', 'auction', ARGV[1],
  'winner', a[3] or '', 'name', a[4] or '', 'bot', a[5] or '0', 'price', a[2], 'endedAt', now,
  'at', now, 'bids', a[6] or '0', 'admin', '1')
expire_finished(ARGV[2], ARGV[1], tonumber(ARGV[3]))
return {'ok', id, tostring(now)}
`

/**
 * Adds bids to a balance exactly once per reference (a top-up, the registration gift, a refund).
 * KEYS: user, references, outbox. ARGV: userId, amount (> 0), reason, reference, auctionId or ''.
 */
export const creditLua = `${NOW}
local bal = redis.call('HGET', KEYS[1], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
if redis.call('SADD', KEYS[2], ARGV[4]) == 0 then return {'dup', '', bal} end
local balance = redis.call('HINCRBY', KEYS[1], 'bal', tonumber(ARGV[2]))
local id = redis.call('XADD', KEYS[3], '*', 'type', 'balance', 'user', ARGV[1], 'amount', ARGV[2],
  'balance', balance, 'reason', ARGV[3], 'reference', ARGV[4], 'auction', ARGV[5], 'at', now_ms())
return {'ok', id, tostring(balance)}
`

/**
 * An admin adds bids to a balance or takes them away (docs/decisions/028-balance-adjustments.md),
 * or sets it (decision 042): the change applies to the balance as it is now, so credits and bids
 * made while the admin was looking stay, and a set is recorded as its difference from the
 * balance at this moment. Once per reference (the request's idempotency key): a repeat changes
 * nothing. Refused, with nothing changed, when the balance would fall below 0 or, by a credit,
 * rise above the maximum, or when `expected` is given and the balance is no longer that.
 * KEYS: user, references, outbox. ARGV: userId, delta (<> 0) or, with 'set', the new balance,
 * reference, adminId, note, expected balance or '', maximum balance, 'add' or 'set'.
 */
export const adjustBalanceLua = `${NOW}
local bal = redis.call('HGET', KEYS[1], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
if redis.call('SISMEMBER', KEYS[2], ARGV[3]) == 1 then return {'dup', '', bal} end
local current = tonumber(bal)
local delta = tonumber(ARGV[2])
if ARGV[8] == 'set' then delta = delta - current end
if ARGV[6] ~= '' and tonumber(ARGV[6]) ~= current then return {'stale', '', bal} end
if current + delta < 0 then return {'below_zero', '', bal} end
if delta > 0 and current + delta > tonumber(ARGV[7]) then return {'above_max', '', bal} end
redis.call('SADD', KEYS[2], ARGV[3])
if delta == 0 then return {'same', '', bal} end
local balance = redis.call('HINCRBY', KEYS[1], 'bal', delta)
local id = redis.call('XADD', KEYS[3], '*', 'type', 'balance', 'user', ARGV[1], 'amount', delta,
  'balance', balance, 'reason', 'admin_adjust', 'reference', ARGV[3], 'auction', '',
  'admin', ARGV[4], 'note', ARGV[5], 'at', now_ms())
return {'ok', id, tostring(balance)}
`

/**
 * Puts a user's balance (from Postgres) into Redis unless Redis already holds it: once hot,
 * Redis is the truth. The username is always refreshed. Refused ({'gone'}) for an account
 * being deleted (removeUserLua), whose row Postgres may still show for a moment.
 * KEYS: user. ARGV: balance, username.
 */
export const loadUserLua = `
if redis.call('HEXISTS', KEYS[1], 'gone') == 1 then return {'gone', ''} end
if redis.call('HSETNX', KEYS[1], 'bal', ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], 'name', ARGV[2])
  return {'loaded', ARGV[1]}
end
redis.call('HSET', KEYS[1], 'name', ARGV[2])
return {'hot', redis.call('HGET', KEYS[1], 'bal')}
`

/**
 * Puts an auction from Postgres into Redis. An upcoming auction is (re)written and scheduled;
 * a live or finished one already in Redis keeps its state (only its display fields change); a
 * live one missing from Redis (Redis lost) comes back with a fresh timer, and each bot's bids
 * in it, so that a bot's limit still counts the bids it made before. An auction missing from
 * Redis also gets back what people paid for on it (docs/decisions/040-holds-rebuilt-from-postgres.md):
 * an upcoming one its prebids in the order placed, both its auto-bid budgets; never over what
 * Redis holds (a prebid or budget already there stays as it is), and never while the auction
 * is being deleted (removeAuctionLua's marker).
 * KEYS: auction, upcoming, ending, bidders, bot counts, prebids, auto-bid budgets, auto-bid
 * index, deletion marker. ARGV: auctionId, status, price, increment, startMs, bids, last,
 * lastName, lastBot, meta JSON, timerMs, bot bids, b, p, n, then b pairs of bot bidder and its
 * bids, p prebidders in order, n triples of auto-bidder, bids left and bids placed, then
 * everyone who has bid.
 */
export const loadAuctionLua = `${NOW}
local current = redis.call('HGET', KEYS[1], 'status')
if current == 'live' or current == 'finished' then
  redis.call('HSET', KEYS[1], 'meta', ARGV[10])
  return current
end
if redis.call('EXISTS', KEYS[9]) == 1 then return 'skipped' end
if ARGV[2] ~= 'upcoming' and ARGV[2] ~= 'live' then return 'skipped' end
local firstPrebid = 16 + 2 * tonumber(ARGV[13])
local firstBudget = firstPrebid + tonumber(ARGV[14])
local firstBidder = firstBudget + 3 * tonumber(ARGV[15])
if not current then
  for i = firstBudget, firstBidder - 1, 3 do
    redis.call('HSETNX', KEYS[7], 'r:' .. ARGV[i], ARGV[i + 1])
    redis.call('HSETNX', KEYS[7], 'p:' .. ARGV[i], ARGV[i + 2])
  end
  if firstBidder > firstBudget then redis.call('SADD', KEYS[8], ARGV[1]) end
end
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
for i = 16, firstPrebid - 1, 2 do redis.call('HSET', KEYS[5], ARGV[i], ARGV[i + 1]) end
for i = firstBidder, #ARGV do redis.call('SADD', KEYS[4], ARGV[i]) end
redis.call('ZADD', KEYS[3], deadline, ARGV[1])
return 'live'
`

/**
 * Removes an auction (admin delete), but only while it is as the admin saw it: an upcoming one
 * that started in the meantime (its prebids turned into bids) or a finished one that came back
 * is left alone. Its prebids and auto-bid budgets go with it: what they owe people is paid back
 * from Postgres once the outbox has written every entry up to this step
 * (docs/decisions/041-deleted-auction-refunds-from-postgres.md). A marker kept for `ms` stops
 * the auction from being loaded again meanwhile. KEYS: auction, upcoming, ending, recent,
 * prebids, bot counts, bidders, auto-bid budgets, auto-bid index, deletion marker, outbox.
 * ARGV: id, status seen, ms. Returns {'changed', status} untouched, or {'ok', the status it
 * had ('' when not held), the newest outbox entry id ('' when none)}.
 */
export const removeAuctionLua = `
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= ARGV[2] then return {'changed', status} end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[1], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
redis.call('SREM', KEYS[9], ARGV[1])
redis.call('SET', KEYS[10], '1', 'PX', tonumber(ARGV[3]))
local newest = redis.call('XREVRANGE', KEYS[11], '+', '-', 'COUNT', 1)[1]
return {'ok', status or '', newest and newest[1] or ''}
`

/**
 * Takes a deleted account out of the engine in one atomic step
 * (docs/decisions/029-nothing-paid-disappears.md): its balance goes and a marker takes its
 * place for `ms`, so no bid, prebid or credit finds it and it cannot be loaded again from a
 * Postgres row about to go; its prebids leave every upcoming auction (their count drops, the
 * start turns none of them into bids) and its auto-bidders' budgets leave every auction, with
 * no one to refund. KEYS: user, upcoming, auto-bid index. ARGV: base, userId, ms.
 * Returns {n, n auctions it had prebids on with their new prebid counts, auctions it had
 * auto-bidders on}.
 */
export const removeUserLua = `
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
`

/** Takes or renews the engine lease. KEYS: lease. ARGV: holder, ttlMs. Returns 1 when held. */
export const leaseLua = `
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
  return 1
end
return 0
`

/** Gives the lease up if still held. KEYS: lease. ARGV: holder. */
export const releaseLua = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`

/**
 * Everything a real-time update of one auction shows, read at one moment: the clock, the live
 * fields (STATE_FIELDS), then meta and the newest recent bids.
 * KEYS: auction, recent bids. ARGV: how many bids. Returns {now} when the auction is not held,
 * else {now, ...fields ('' where unset), meta, ...bids}.
 */
export const auctionViewLua = `${NOW}
local out = {tostring(now_ms())}
local f = redis.call('HMGET', KEYS[1], ${luaList(STATE_FIELDS)}, 'meta')
if not f[1] then return out end
for i = 1, ${STATE_FIELDS.length + 1} do out[i + 1] = f[i] or '' end
local recent = redis.call('LRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)
for i = 1, #recent do out[${STATE_FIELDS.length + 2} + i] = recent[i] end
return out
`

/**
 * Milliseconds left on every live auction. The "ending" set only holds lower bounds of the
 * deadlines, so the real ones are read from the auction hashes.
 * KEYS: ending. ARGV: base. Returns {now, id, deadline, id, deadline, ...}.
 */
export const timersLua = `${NOW}
local out = {tostring(now_ms())}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local deadline = redis.call('HGET', ARGV[1] .. 'a:' .. id, 'deadline')
  if deadline then
    out[#out + 1] = id
    out[#out + 1] = deadline
  end
end
return out
`
