import { isLanguage, type Language } from '~/i18n/config.ts'
import { getEnv } from '~/utils/env.server.ts'
import { telegramConfig, type TelegramConfig } from '~/utils/env-telegram.server.ts'

// The site's Telegram bot, when it has one (docs/operations.md#telegram-bot).

/** The bot's settings, or null: then the Telegram channel is hidden everywhere. */
export function getTelegramConfig(): TelegramConfig | null {
  return telegramConfig(getEnv())
}

/** The link the profile gives: t.me/<bot>?start=<token> (Telegram's deep linking). */
export function startLink(config: TelegramConfig, token: string) {
  return `https://t.me/${config.username}?start=${token}`
}

/** The bot speaks the person's Telegram language when it is one of ours, else ru. */
export function botLanguage(code: string | undefined | null): Language {
  const base = code?.toLowerCase().split('-')[0]
  return isLanguage(base) ? base : 'ru'
}
