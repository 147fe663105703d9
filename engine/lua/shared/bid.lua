-- What every bid does, a person's (bid.lua), the auto-bidder's (auto-bid.lua) and a bot's
-- (bot-bid.lua). The hot path of the product, so it does the least Redis work a bid needs: the
-- deadline lives in the auction hash only (the "ending" set holds a lower bound the sweeper
-- moves on, see sweep.lua), every number is turned into text once, with integer formatting, and
-- the recent-bids list is trimmed only when it has grown to twice its size. A number read from
-- Redis is made one with `+ 0`, one conversion: Lua's tonumber converts a string twice.

-- The clock and the auction's fields a bid needs: now, {status, price, inc, deadline, last,
-- bids, beg, lockAt} (the last two its fair-play rules, shared/rules.lua); or nil and the
-- refusal when the auction takes no bid from `bidder` now.
local function open_bid(auction, bidder)
  local t = redis.call('TIME')
  local now = t[1] * 1000 + math.floor(t[2] / 1000)
  local a = redis.call('HMGET', auction, 'status', 'price', 'inc', 'deadline', 'last', 'bids',
    'beg', 'lockAt')
  if not a[1] then return nil, {'err', 'auction_not_found'} end
  if a[1] == 'finished' then return nil, {'err', 'auction_ended'} end
  if a[1] ~= 'live' then return nil, {'err', 'auction_not_live'} end
  if now >= a[4] + 0 then return nil, {'err', 'auction_ended'} end
  if a[5] == bidder then return nil, {'err', 'already_leading'} end
  return now, a
end

-- A person's bid after the auction's checks (`a` open_bid's): reads their balance, name and what
-- shared/rules.lua needs, checks those rules, then at most one bid each `interval` ms. Returns
-- their fields {bal, lb, name, ...}, the day and the day's count with this bid, to write with
-- it; or nil and the refusal.
local function open_person(base, ukey, user, a, bidders, now, interval)
  local u = redis.call('HMGET', ukey, 'bal', 'lb', 'name', 'dd', 'dc', 'lim', 'won', 'ph')
  if not u[1] then return nil, {'err', 'user_not_loaded'} end
  local day, count = fair_play(base, user, u, a[7], a[8], bidders, now)
  if not day then return nil, count end
  if u[2] and now - u[2] < interval then return nil, {'err', 'too_fast'} end
  return u, day, string.format('%d', count + 1)
end

-- Places the bid once its bidder has paid: raises the price, resets the timer, writes the outbox
-- entry and the recent-bids row, counts the bidder. `bid` holds auction (its id), bidder, name,
-- bot, debit and auto ('0'/'1'), kind (the record's: bid, autobid or bot, docs/fair-play.md),
-- balance (text, '-1' for a bot), timer (ms) and kept (recent bids kept). The bid's place in the
-- auction's record is the new count of its bids, fixed here with its time.
-- Returns {'ok', entry id, price, deadline, bids, balance, now, name}.
local function place_bid(auction, recent, outbox, bidders, now, a, bid)
  local fmt = string.format
  local nows = fmt('%d', now)
  local price = fmt('%d', a[2] + a[3])
  local bids = fmt('%d', (a[6] or 0) + 1)
  local deadline = fmt('%d', now + bid.timer)
  redis.call('HSET', auction, 'price', price, 'deadline', deadline, 'last', bid.bidder,
    'lastName', bid.name, 'lastBot', bid.bot, 'bids', bids)
  local id = redis.call('XADD', outbox, '*', 'type', 'bid', 'auction', bid.auction,
    'bidder', bid.bidder, 'name', bid.name, 'bot', bid.bot, 'debit', bid.debit, 'price', price,
    'balance', bid.balance, 'at', nows, 'auto', bid.auto, 'seq', bids, 'kind', bid.kind)
  local listed = redis.call('LPUSH', recent, '{"id":"' .. id .. '","bidder":' .. cjson.encode(bid.bidder) ..
    ',"name":' .. cjson.encode(bid.name) .. ',"bot":' .. (bid.bot == '1' and 'true' or 'false') ..
    ',"prebid":false,"price":' .. price .. ',"at":' .. nows .. ',"seq":' .. bids ..
    ',"kind":"' .. bid.kind .. '"}')
  if listed > 2 * bid.kept then redis.call('LTRIM', recent, 0, bid.kept - 1) end
  redis.call('SADD', bidders, bid.bidder)
  return {'ok', id, price, deadline, bids, bid.balance, nows, bid.name}
end
