// Lua scripts of the auto-bidder (docs/decisions/015-auto-bidder.md). An auction's budgets
// live in one hash, `ab:<auctionId>`: `r:<userId>` is what is left of the user's reserve,
// `p:<userId>` how many bids it placed. The set `abidx` lists auctions that hold budgets, so
// the worker finds them without asking Postgres. Bids themselves go through bid.lua (auto mode).

const NOW = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`

/**
 * Moves bids from the balance into the user's auto-bid budget for an auction that has not
 * finished. KEYS: auction, user, budgets, index, outbox. ARGV: auctionId, userId, bids (> 0).
 * Returns {'ok', entry id, balance, left, placed}.
 */
export const autoBidReserveLua = `${NOW}
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'err', 'auction_not_found'} end
if status == 'finished' then return {'err', 'auction_ended'} end
local bal = redis.call('HGET', KEYS[2], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
local bids = tonumber(ARGV[3])
local balance = tonumber(bal)
if balance < bids then return {'err', 'insufficient_bids'} end
balance = balance - bids
redis.call('HSET', KEYS[2], 'bal', balance)
local left = redis.call('HINCRBY', KEYS[3], 'r:' .. ARGV[2], bids)
local placed = redis.call('HGET', KEYS[3], 'p:' .. ARGV[2]) or '0'
redis.call('SADD', KEYS[4], ARGV[1])
local id = redis.call('XADD', KEYS[5], '*', 'type', 'autobid', 'kind', 'reserve',
  'auction', ARGV[1], 'user', ARGV[2], 'amount', -bids, 'balance', balance, 'at', now_ms())
return {'ok', id, tostring(balance), tostring(left), placed}
`

/**
 * The user stops their auto-bidder: what is left of the budget goes back to the balance.
 * KEYS: user, budgets, outbox. ARGV: auctionId, userId.
 * Returns {'ok', entry id, balance, returned} or {'none', '', balance} without a budget.
 */
export const autoBidStopLua = `${NOW}
local bal = redis.call('HGET', KEYS[1], 'bal')
if not bal then return {'err', 'user_not_loaded'} end
local field = 'r:' .. ARGV[2]
local left = redis.call('HGET', KEYS[2], field)
if not left then return {'none', '', bal} end
redis.call('HDEL', KEYS[2], field)
local amount = tonumber(left)
local balance = redis.call('HINCRBY', KEYS[1], 'bal', amount)
local id = redis.call('XADD', KEYS[3], '*', 'type', 'autobid', 'kind', 'return',
  'auction', ARGV[1], 'user', ARGV[2], 'amount', amount, 'balance', balance, 'at', now_ms())
return {'ok', id, tostring(balance), tostring(amount)}
`

/**
 * Gives every budget left on an auction back to its owner, once the auction has finished or
 * is gone (deleted). A second run finds nothing. Budgets of users whose balance is not in Redis
 * stay until the caller has loaded them, or are dropped when ARGV[3] is '1' (the caller tried:
 * the user no longer exists). KEYS: auction, budgets, index, outbox. ARGV: auctionId, base,
 * drop. Returns {'not_finished'} or {'ok', userId, amount, balance, ..., '|', missing users...}.
 */
export const autoBidReturnLua = `${NOW}
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= 'finished' then return {'not_finished'} end
local now = now_ms()
local out = {'ok'}
local missing = {}
local fields = redis.call('HGETALL', KEYS[2])
for i = 1, #fields, 2 do
  local field = fields[i]
  if string.sub(field, 1, 2) == 'r:' then
    local user = string.sub(field, 3)
    local ukey = ARGV[2] .. 'u:' .. user
    if redis.call('HEXISTS', ukey, 'bal') == 0 then
      if ARGV[3] ~= '1' then table.insert(missing, user) end
    else
      local amount = tonumber(fields[i + 1])
      local balance = redis.call('HINCRBY', ukey, 'bal', amount)
      redis.call('HDEL', KEYS[2], field)
      redis.call('XADD', KEYS[4], '*', 'type', 'autobid', 'kind', 'return', 'auction', ARGV[1],
        'user', user, 'amount', amount, 'balance', balance, 'at', now)
      table.insert(out, user)
      table.insert(out, tostring(amount))
      table.insert(out, tostring(balance))
    end
  end
end
if #missing == 0 then
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[1])
end
table.insert(out, '|')
for _, user in ipairs(missing) do table.insert(out, user) end
return out
`
