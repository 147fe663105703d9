-- Puts a user's balance (from Postgres) into Redis unless Redis already holds it: once hot,
-- Redis is the truth. The username is always refreshed. Refused ({'gone'}) for an account
-- being deleted (remove-user.lua), whose row Postgres may still show for a moment.
-- KEYS: user. ARGV: balance, username.
if redis.call('HEXISTS', KEYS[1], 'gone') == 1 then return {'gone', ''} end
if redis.call('HSETNX', KEYS[1], 'bal', ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], 'name', ARGV[2])
  return {'loaded', ARGV[1]}
end
redis.call('HSET', KEYS[1], 'name', ARGV[2])
return {'hot', redis.call('HGET', KEYS[1], 'bal')}
