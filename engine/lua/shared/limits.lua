-- A person's limits as the bid scripts read them (`lim`, shared/rules.lua): Redis keeps the
-- copy with the higher version (its first word); '' leaves them as they are.
local function set_limits(user, lim)
  if lim == '' then return 0 end
  local current = redis.call('HGET', user, 'lim')
  if current and tonumber(string.match(current, '^%d+')) >= tonumber(string.match(lim, '^%d+')) then
    return 0
  end
  redis.call('HSET', user, 'lim', lim)
  return 1
end
