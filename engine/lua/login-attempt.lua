-- A login attempt before its password is checked (docs/rules.md#login-and-sessions;
-- app/services/rate-limit.server.ts).
-- KEYS: the pair's wait, the pair's failures, the address's attempts in this window, the
-- username's failures in this window.
-- ARGV: attempts allowed per address, ms until the address window ends, its length in seconds,
-- free failures, first wait ms, longest wait ms, seconds to forget the pair's failures, failures
-- allowed per username, the wait ms while the username is past them.
-- Returns 0 to go on to the password, else the ms to wait. The attempt counts as a failure of
-- the pair from the start (a success clears it), so parallel attempts cannot pass one wait.
local wait = redis.call('PTTL', KEYS[1])
if wait > 0 then return wait end
local attempts = redis.call('INCR', KEYS[3])
redis.call('EXPIRE', KEYS[3], ARGV[3])
if attempts > tonumber(ARGV[1]) then return tonumber(ARGV[2]) end
local failures = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[7])
local delay = 0
local free = tonumber(ARGV[4])
if failures >= free then
  delay = math.min(tonumber(ARGV[6]), tonumber(ARGV[5]) * 2 ^ (failures - free))
end
if tonumber(redis.call('GET', KEYS[4]) or '0') > tonumber(ARGV[8]) then
  delay = math.max(delay, tonumber(ARGV[9]))
end
if delay > 0 then redis.call('SET', KEYS[1], '1', 'PX', math.floor(delay)) end
return 0
