-- Everything a real-time update of one auction shows, read at one moment: the clock, the live
-- fields (STATE_FIELDS in engine/reads.ts, in that order), then meta and the newest recent bids.
-- KEYS: auction, recent bids. ARGV: how many bids. Returns {now} when the auction is not held,
-- else {now, ...fields ('' where unset), meta, ...bids}.
local out = {tostring(now_ms())}
local f = redis.call('HMGET', KEYS[1], 'status', 'price', 'inc', 'start', 'deadline', 'ended', 'last', 'lastName', 'lastBot', 'bids', 'prebids', 'meta')
if not f[1] then return out end
for i = 1, 12 do out[i + 1] = f[i] or '' end
local recent = redis.call('LRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)
for i = 1, #recent do out[13 + i] = recent[i] end
return out
