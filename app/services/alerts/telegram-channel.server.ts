import { Api, GrammyError, HttpError } from 'grammy'
import { chatOfUser, linkedAmong, unlinkChat } from '~/models/telegram-link.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getTelegramConfig } from '~/services/telegram/config.server.ts'
import { holdChat, takeSendSlot } from '~/services/telegram/send-limits.server.ts'
import { alertButtons } from '~/services/telegram/alert-buttons.server.ts'
import type { AlertChannel, AlertMessage, SendOutcome } from './channel.server.ts'

// Alerts through the site's Telegram bot (docs/rules.md#alerts): a message to the person's
// linked chat, within Telegram's limits (app/services/telegram/send-limits.server.ts). Telegram's
// answers (https://core.telegram.org/bots/api#making-requests): 429 with
// parameters.retry_after asks to wait; 403 means the chat cannot be written to any more (the
// person blocked the bot, deactivated), so the chat is unlinked.

let api: { token: string; apiRoot: string; api: Api } | undefined

/**
 * A request Telegram has not answered within this long is a retry: well inside the time after
 * which the queue gives an entry to another consumer, so no two consumers send one alert at once.
 */
const TIMEOUT_SECONDS = 10

function apiFor(token: string, apiRoot: string) {
  if (api?.token !== token || api.apiRoot !== apiRoot)
    api = { token, apiRoot, api: new Api(token, { apiRoot, timeoutSeconds: TIMEOUT_SECONDS }) }
  return api.api
}

export function alertText(message: AlertMessage) {
  return `${message.title}\n\n${message.body}\n\n${message.url}`
}

export const telegramChannel: AlertChannel = {
  name: 'telegram',

  enabled: () => getTelegramConfig() !== null,

  reachable: async (userIds) => (getTelegramConfig() === null ? new Set() : linkedAmong(userIds)),

  async send(userId, message): Promise<SendOutcome> {
    const config = getTelegramConfig()
    if (!config) return { status: 'unreachable' }
    const chatId = await chatOfUser(userId)
    if (chatId === null) return { status: 'unreachable' }
    // Our own pacing, before Telegram is asked: no attempt spent (several watched auctions
    // starting at once give one chat several alerts in the same second).
    const wait = await takeSendSlot(chatId)
    if (wait > 0) return { status: 'paced', afterMs: wait }
    try {
      await apiFor(config.token, config.apiRoot).sendMessage(chatId, alertText(message), {
        reply_markup: await alertButtons(config, userId, message),
      })
      return { status: 'sent' }
    } catch (error) {
      return failed(error, chatId)
    }
  },
}

async function failed(error: unknown, chatId: number): Promise<SendOutcome> {
  if (error instanceof GrammyError) {
    const reason = `${error.error_code} ${error.description}`
    if (error.error_code === 429) {
      const seconds = error.parameters.retry_after ?? 1
      await holdChat(chatId, seconds * 1_000)
      return { status: 'retry', retryAfterMs: seconds * 1_000, reason }
    }
    if (error.error_code === 403) {
      await unlinkChat(chatId)
      return { status: 'gone' }
    }
    if (error.error_code >= 500) return { status: 'retry', reason }
    return { status: 'failed', reason }
  }
  if (error instanceof HttpError) {
    log.warn('telegram not reached', errorFields(error.error))
    return { status: 'retry', reason: `network: ${String(error.message)}` }
  }
  throw error
}
