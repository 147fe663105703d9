-- The fair-play rules and the limits a bidder sets (docs/rules.md#fair-play-auctions,
-- docs/rules.md#limits-a-bidder-sets), checked in the same script that takes a bid or a prebid.
-- One function: every function a script defines is made anew on each call, and a bid is the
-- product's hot path (docs/decisions/084-limits-a-bidder-sets.md).
-- A person's hash keeps: `won` ('1' once they have won an auction), `ph` (their verified phone),
-- `lim` (their limits: "version dailyLimit excludedUntil pendingAt pendingLimit pendingUntil",
-- '-' for none, the pending pair applying whole from pendingAt), `dd` and `dc` (the day, Bishkek's,
-- and how many bids and prebids they placed on it). Wins of the last 7 days are sorted sets
-- `w:<userId>` and `w:p:<phone>` (shared/wins.lua), the win limit's settings the hash `rules`
-- (`wl` the limit, 0 off; `wp` '1' to count per verified phone). An auction's `beg` is '1' for
-- beginners only, its `lockAt` when it closes to new bidders (ms).

-- Whether `user`, whose hash's fields are `p` (HMGET of bal, lb, name, dd, dc, lim, won, ph), may
-- bid now on an auction whose `beg` and `lockAt` are given (`bidders` its set of who has bid;
-- lockAt nil for a prebid).
-- Returns Bishkek's day and the day's bids and prebids so far; or nil and the refusal.
local function fair_play(base, user, p, beg, lock_at, bidders, now)
  -- Bishkek is UTC+6 all year: its day starts at 18:00 UTC.
  local day = string.format('%d', math.floor((now + 21600000) / 86400000))
  local count = 0
  if p[4] == day then count = p[5] + 0 end
  if p[6] then
    local _, dl, xu, pat, pdl, pxu = string.match(p[6], '^(%S+) (%S+) (%S+) (%S+) (%S+) (%S+)$')
    if pat ~= '-' and now >= tonumber(pat) then dl, xu = pdl, pxu end
    xu = tonumber(xu)
    if xu and now < xu then return nil, {'err', 'self_excluded'} end
    dl = tonumber(dl)
    if dl and count >= dl then return nil, {'err', 'daily_limit'} end
  end
  if lock_at and now >= lock_at + 0 and redis.call('SISMEMBER', bidders, user) == 0 then
    return nil, {'err', 'auction_locked'}
  end
  if beg == '1' and p[7] == '1' then return nil, {'err', 'beginner_only'} end
  -- Someone who never won and has no verified phone cannot be at the win limit: the settings are
  -- not even read (most bids).
  if p[7] ~= '1' and not p[8] then return day, count end
  local s = redis.call('HMGET', base .. 'rules', 'wl', 'wp')
  if not s[1] then return nil, {'err', 'rules_not_loaded'} end
  local limit = tonumber(s[1])
  if limit > 0 then
    local key = base .. 'w:' .. user
    if s[2] == '1' and p[8] then key = base .. 'w:p:' .. p[8] end
    if redis.call('ZCOUNT', key, now - 604800000, '+inf') >= limit then
      return nil, {'err', 'win_limit'}
    end
  end
  return day, count
end
