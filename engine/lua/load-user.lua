-- Puts a user's balance (from Postgres) into Redis unless Redis already holds it: once hot,
-- Redis is the truth. The username and verified phone are always refreshed, the limits kept in
-- their newer copy, a win Postgres knows of is added (never taken away), and the day's count of
-- bids is set only when Redis has none for the day (shared/rules.lua, wins.lua, limits.lua).
-- Refused ({'gone'}) for an account being deleted (remove-user.lua), whose row Postgres may
-- still show for a moment.
-- KEYS: user. ARGV: balance, username, won ('1' or '0'), verified phone ('' none), limits ('' none),
-- day, bids that day, base, userId, the person's wins of 7 days and their phone's (JSON lists of
-- [auction id, ended at]).
if redis.call('HEXISTS', KEYS[1], 'gone') == 1 then return {'gone', ''} end
local now = now_ms()
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'ph', ARGV[4]) else redis.call('HDEL', KEYS[1], 'ph') end
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'won', '1') end
set_limits(KEYS[1], ARGV[5])
if redis.call('HGET', KEYS[1], 'dd') ~= ARGV[6] then
  redis.call('HSET', KEYS[1], 'dd', ARGV[6], 'dc', ARGV[7])
end
add_wins(ARGV[8] .. 'w:' .. ARGV[9], cjson.decode(ARGV[10]), now)
if ARGV[4] ~= '' then add_wins(ARGV[8] .. 'w:p:' .. ARGV[4], cjson.decode(ARGV[11]), now) end
redis.call('HSET', KEYS[1], 'name', ARGV[2])
if redis.call('HSETNX', KEYS[1], 'bal', ARGV[1]) == 1 then return {'loaded', ARGV[1]} end
return {'hot', redis.call('HGET', KEYS[1], 'bal')}
