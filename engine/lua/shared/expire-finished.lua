-- Once an auction has finished, its keys (engine/keys.ts: auction, recent bids, prebids, bot
-- counts, bidders) stay for `ms` so its page and its last updates can still be read.
local function expire_finished(base, id, ms)
  for _, kind in ipairs({'a:', 'rb:', 'pb:', 'bc:', 'bd:'}) do
    redis.call('PEXPIRE', base .. kind .. id, ms)
  end
end
