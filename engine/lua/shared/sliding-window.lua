-- Limits over a sliding window: a key holds the times (Redis ms) of its recent hits in a sorted
-- set, so "at most N in any W" holds for every span of W, not only for aligned ones.

-- Forgets the hits of `key` older than `window_ms` and returns how many are left.
local function recent_hits(key, window_ms, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window_ms)
  return redis.call('ZCARD', key)
end

-- Takes one of `limit` places in the window: returns 0 and records the hit, or, when the window
-- is full, the ms until its oldest hit leaves it (a refused hit is not recorded).
local function take_slot(key, limit, window_ms, now)
  local count = recent_hits(key, window_ms, now)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + window_ms - now)
  end
  -- Within one ms the count grows with each hit, so members never collide.
  redis.call('ZADD', key, now, now .. '-' .. count)
  redis.call('PEXPIRE', key, window_ms)
  return 0
end
