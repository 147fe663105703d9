import { keysOf } from '../../../engine/index.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// Telegram's limits for a bot's messages, kept in Redis so they hold across instances
// (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this): no more
// than one message a second to one chat, and about 30 a second in all.

export const PER_SECOND = 30
const PER_CHAT_MS = 1_000

// KEYS[1]: the chat's key, set for a second after a message; KEYS[2]: the prefix of the
// per-second counters of all messages. Redis's own clock, so every instance counts alike.
// Answers 0 (send now) or the milliseconds to wait.
const SCRIPT = `
local wait = redis.call('PTTL', KEYS[1])
if wait > 0 then return wait end
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window = KEYS[2] .. ':' .. math.floor(ms / 1000)
local sent = redis.call('INCR', window)
if sent == 1 then redis.call('PEXPIRE', window, 2000) end
if sent > tonumber(ARGV[1]) then return 1000 - (ms % 1000) end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
return 0
`

const keys = (chatId: number) => {
  const k = keysOf(getEnv().REDIS_PREFIX)
  return [k.rateLimit(`tg:chat:${chatId}`), k.rateLimit('tg:all')] as const
}

/** Takes a slot for one message to `chatId`: 0 when it may go now, else the wait in ms. */
export async function takeSendSlot(chatId: number): Promise<number> {
  const [chat, all] = keys(chatId)
  const wait = await getRedis().eval(SCRIPT, 2, chat, all, PER_SECOND, PER_CHAT_MS)
  return Number(wait)
}

/** Telegram asked to wait (`retry_after`): nothing more goes to this chat until then. */
export async function holdChat(chatId: number, ms: number) {
  const [chat] = keys(chatId)
  await getRedis().set(chat, '1', 'PX', Math.max(1, Math.ceil(ms)))
}
