import type { InlineKeyboard } from 'grammy'
import { isLanguage, fallbackLanguage } from '~/i18n/config.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import type { AlertMessage } from '~/services/alerts/channel.server.ts'
import type { TelegramConfig } from '~/utils/env-telegram.server.ts'
import { MINI_APP_PATH } from '~/utils/telegram-web-app.ts'
import { auctionButtons } from './buttons.server.ts'
import type { ButtonAction } from './callback-data.server.ts'

// The buttons under a Telegram alert (docs/rules.md#telegram-buttons): on "outbid" and "started"
// a bid, on "starts soon" a prebid and stop watching, and on every alert "Open": its page in
// the Mini App.
// Telegram opens a Mini App only from an HTTPS address
// (https://core.telegram.org/bots/api#webappinfo): a site without one gets no "Open" button (the
// alert's text has the link).

const ACTIONS: Partial<Record<AlertMessage['kind'], readonly ButtonAction[]>> = {
  outbid: ['b'],
  started: ['b'],
  startsSoon: ['p', 'u'],
}

/** The Mini App's address that opens `pageUrl` once Telegram has signed its person in. */
export function miniAppUrl(pageUrl: string) {
  const page = new URL(pageUrl)
  if (page.protocol !== 'https:') return null
  const app = new URL(MINI_APP_PATH, page.origin)
  app.searchParams.set('to', page.pathname + page.search + page.hash)
  return app.toString()
}

export async function alertButtons(
  config: TelegramConfig,
  userId: string,
  message: AlertMessage,
): Promise<InlineKeyboard | undefined> {
  const actions = message.auctionId ? (ACTIONS[message.kind] ?? []) : []
  const open = miniAppUrl(message.url)
  if (actions.length === 0 && !open) return undefined
  const language = isLanguage(message.language) ? message.language : fallbackLanguage
  const t = await getFixedT(language, 'telegram')
  const keyboard = auctionButtons(config, { t }, userId, message.auctionId ?? '', actions)
  if (open) (actions.length > 0 ? keyboard.row() : keyboard).webApp(t('bot.buttons.open'), open)
  return keyboard
}
