-- Milliseconds left on every live auction. The "ending" set only holds lower bounds of the
-- deadlines, so the real ones are read from the auction hashes.
-- KEYS: ending. ARGV: base. Returns {now, id, deadline, id, deadline, ...}.
local out = {tostring(now_ms())}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local deadline = redis.call('HGET', ARGV[1] .. 'a:' .. id, 'deadline')
  if deadline then
    out[#out + 1] = id
    out[#out + 1] = deadline
  end
end
return out
