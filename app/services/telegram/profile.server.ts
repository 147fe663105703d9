import { telegramStatus, type TelegramStatus } from '~/models/telegram-link.server.ts'
import { getTelegramConfig } from './config.server.ts'

/** The profile's Telegram section, or null when the site has no bot (the section is hidden). */
export async function profileTelegram(userId: string): Promise<TelegramStatus | null> {
  return getTelegramConfig() ? telegramStatus(userId) : null
}
