-- The fair-play rules and the limits a bidder sets (docs/rules.md#fair-play-auctions,
-- docs/rules.md#limits-a-bidder-sets), checked in the same script that takes the bid.
-- A person's hash keeps: `won` ('1' once they have won an auction), `ph` (their verified phone),
-- `lim` (their limits: "version dailyLimit excludedUntil pendingAt pendingLimit pendingUntil",
-- '-' for none, the pending pair applying whole from pendingAt), `dd` and `dc` (the day, Bishkek's,
-- and how many bids and prebids they placed on it). Wins of the last 7 days are sorted sets
-- `w:<userId>` and `w:p:<phone>` (member auction id, score the end), the win limit's settings the
-- hash `rules` (`wl` the limit, 0 off; `wp` '1' to count per verified phone).

local DAY_MS = 86400000
local WEEK_MS = 7 * DAY_MS
-- Bishkek is UTC+6 all year: its day starts at 18:00 UTC.
local BISHKEK_MS = 6 * 3600000

local function day_of(now)
  return string.format('%d', math.floor((now + BISHKEK_MS) / DAY_MS))
end

-- The daily limit and the end of the exclusion in force at `now` (nil for none).
local function limits_at(lim, now)
  local _, dl, xu, pat, pdl, pxu = string.match(lim, '^(%S+) (%S+) (%S+) (%S+) (%S+) (%S+)$')
  if pat ~= '-' and now >= tonumber(pat) then dl, xu = pdl, pxu end
  return tonumber(dl), tonumber(xu)
end

-- The bids and prebids the person placed today, or nil and the refusal when their own limits
-- take no more: an exclusion running, or the day's limit reached. `dd`, `dc` and `lim` are the
-- fields of their hash.
local function own_limits(dd, dc, lim, now, day)
  local count = 0
  if dd == day then count = tonumber(dc) end
  if lim then
    local dl, xu = limits_at(lim, now)
    if xu and now < xu then return nil, {'err', 'self_excluded'} end
    if dl and count >= dl then return nil, {'err', 'daily_limit'} end
  end
  return count
end

-- The refusal of the house's rules for a person, or nil: a beginner auction (`beginner` true)
-- takes no one who has won, and nobody with the win limit's wins in 7 days bids at all.
-- `won` and `phone` are the person's fields.
local function house_rules(base, user, beginner, won, phone, now)
  if beginner and won == '1' then return {'err', 'beginner_only'} end
  -- Someone who never won and has no verified phone cannot be at the win limit: the settings are
  -- not even read (most bids).
  if won ~= '1' and not phone then return nil end
  local s = redis.call('HMGET', base .. 'rules', 'wl', 'wp')
  if not s[1] then return {'err', 'rules_not_loaded'} end
  local limit = tonumber(s[1])
  if limit > 0 then
    local key = base .. 'w:' .. user
    if s[2] == '1' and phone then key = base .. 'w:p:' .. phone end
    if redis.call('ZCOUNT', key, now - WEEK_MS, '+inf') >= limit then
      return {'err', 'win_limit'}
    end
  end
  return nil
end

-- A locked auction (its `lockAt` passed) takes bids only from who has bid on it already.
local function locked_out(lock_at, bidders, bidder, now)
  return lock_at and now >= tonumber(lock_at) and redis.call('SISMEMBER', bidders, bidder) == 0
end

-- Adds wins ({auction id, ended at} pairs) to a sorted set of wins, keeping 7 days of them.
local function add_wins(key, wins, now)
  for _, w in ipairs(wins) do redis.call('ZADD', key, w[2], w[1]) end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - WEEK_MS)
  if redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, WEEK_MS) end
end

-- Counts a person's win of `auction`, ended at `at`: for the beginner rule and for the win limit
-- (per person and, when they have one, per verified phone).
local function record_win(base, user, auction, at, now)
  local ukey = base .. 'u:' .. user
  redis.call('HSET', ukey, 'won', '1')
  local wins = {{auction, at}}
  add_wins(base .. 'w:' .. user, wins, now)
  local phone = redis.call('HGET', ukey, 'ph')
  if phone then add_wins(base .. 'w:p:' .. phone, wins, now) end
end

-- Keeps the newer copy of a person's limits (`lim`, its first word the version); '' leaves them.
local function set_limits(user, lim)
  if lim == '' then return 0 end
  local current = redis.call('HGET', user, 'lim')
  if current and tonumber(string.match(current, '^%d+')) >= tonumber(string.match(lim, '^%d+')) then
    return 0
  end
  redis.call('HSET', user, 'lim', lim)
  return 1
end
