-- Wins of the last 7 days (shared/rules.lua reads them for the win limit): sorted sets
-- `w:<userId>` and `w:p:<phone>`, member the auction id, score when it ended.

-- Adds wins ({auction id, ended at} pairs) to a sorted set of wins, keeping 7 days of them.
local function add_wins(key, wins, now)
  local week = 604800000
  for _, w in ipairs(wins) do redis.call('ZADD', key, w[2], w[1]) end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - week)
  if redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, week) end
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
