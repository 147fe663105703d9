-- The sweeper: starts auctions whose start time has come (their prebids become bids in the
-- order placed) and finishes those whose deadline has passed, re-checked against TIME here; a
-- person's win counts for the fair-play rules at once (shared/wins.lua).
-- KEYS: upcoming, ending, outbox. ARGV: base, timerMs, recentMax, limit, finishedTtlMs.
-- Returns {now, next start or '', next deadline or '', started ids, finished ids}.
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
    local before = tonumber(a[5] or '0')
    for i, uid in ipairs(redis.call('ZRANGE', base .. 'pb:' .. id, 0, -1)) do
      price = price + inc
      local name = redis.call('HGET', base .. 'u:' .. uid, 'name') or ''
      -- Each prebid's place in the auction's record (docs/fair-play.md): after the bids before.
      conversions[i] = {user = uid, name = name, price = price, seq = before + i}
      last, lastName = uid, name
      redis.call('SADD', base .. 'bd:' .. id, uid)
    end
    local bids = before + #conversions
    local deadline = now + timer
    redis.call('HSET', akey, 'status', 'live', 'price', price, 'deadline', deadline, 'last', last,
      'lastName', lastName, 'lastBot', '0', 'bids', bids, 'started', now)
    redis.call('ZADD', KEYS[2], deadline, id)
    local eid = redis.call('XADD', KEYS[3], '*', 'type', 'start', 'auction', id, 'price', price,
      'deadline', deadline, 'at', now, 'conversions', #conversions == 0 and '[]' or cjson.encode(conversions))
    local rkey = base .. 'rb:' .. id
    for i, c in ipairs(conversions) do
      redis.call('LPUSH', rkey, cjson.encode({id = eid .. '-' .. i, bidder = c.user, name = c.name,
        bot = false, prebid = true, price = c.price, at = now, seq = c.seq, kind = 'prebid'}))
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
    if a[4] and a[4] ~= '' and a[6] ~= '1' then record_win(base, a[4], id, tonumber(a[2]), now) end
    expire_finished(base, id, keep)
    table.insert(finished, id)
  end
end
local nextStart = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or ''
local nextEnd = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2] or ''
return {tostring(now), nextStart, nextEnd, table.concat(started, ','), table.concat(finished, ',')}
