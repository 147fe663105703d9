-- A login attempt before its password is checked (docs/rules.md#login-and-sessions;
-- app/services/rate-limit.server.ts).
-- KEYS: the pair's wait, the pair's failures, the address's recent attempts, the username's
-- recent failures (both sliding windows: engine/lua/shared/sliding-window.lua).
-- ARGV: attempts allowed per address, the address window in ms, free failures, first wait ms,
-- longest wait ms, seconds to forget the pair's failures, failures allowed per username, the
-- username window in ms, the wait ms while the username is past its failures.
-- Returns 0 to go on to the password, else the ms to wait. The attempt counts as a failure of
-- the pair from the start (a success clears it), so parallel attempts cannot pass one wait.
local wait = redis.call('PTTL', KEYS[1])
if wait > 0 then return wait end
local now = now_ms()
local full = take_slot(KEYS[3], tonumber(ARGV[1]), tonumber(ARGV[2]), now)
if full > 0 then return full end
local failures = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[6])
local delay = 0
local free = tonumber(ARGV[3])
if failures >= free then
  delay = math.min(tonumber(ARGV[5]), tonumber(ARGV[4]) * 2 ^ (failures - free))
end
-- The username's failures fill at most its limit + 1 places (app/services/rate-limit.server.ts).
if recent_hits(KEYS[4], tonumber(ARGV[8]), now) > tonumber(ARGV[7]) then
  delay = math.max(delay, tonumber(ARGV[9]))
end
if delay > 0 then redis.call('SET', KEYS[1], '1', 'PX', math.floor(delay)) end
return 0
