import { z } from 'zod'

// The Telegram bot's settings (docs/operations.md#telegram-bot): all three of token, username
// and webhook secret, or none (then the Telegram channel is hidden everywhere).

export const telegramSettings = {
  /** From @BotFather: `<bot id>:<secret>`. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'must look like 123456:ABC… (from @BotFather)')
    .optional(),
  /** The bot's username without the @ (t.me/<name>). */
  TELEGRAM_BOT_USERNAME: z
    .string()
    .transform((v) => v.replace(/^@/, ''))
    .pipe(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{3,31}$/, 'must be the bot’s username'))
    .optional(),
  /**
   * Telegram sends it in X-Telegram-Bot-Api-Secret-Token with every update (setWebhook's
   * secret_token: 1–256 characters A-Z, a-z, 0-9, _ and -).
   */
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,256}$/, 'must be 16–256 characters A-Z, a-z, 0-9, _ and -')
    .optional(),
  /** The Bot API's address; tests point it at a local fake. */
  TELEGRAM_API_ROOT: z
    .string()
    .url('must be a URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .transform((v) => v.replace(/\/+$/, ''))
    .default('https://api.telegram.org'),
}

type TelegramFields = {
  TELEGRAM_BOT_TOKEN?: string
  TELEGRAM_BOT_USERNAME?: string
  TELEGRAM_WEBHOOK_SECRET?: string
  TELEGRAM_API_ROOT: string
}

export type TelegramConfig = {
  token: string
  username: string
  webhookSecret: string
  apiRoot: string
}

const REQUIRED = ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_BOT_USERNAME', 'TELEGRAM_WEBHOOK_SECRET'] as const

/** Some of the bot's settings without the others: the start stops and names what is missing. */
export function telegramProblems(env: TelegramFields): string[] {
  const missing = REQUIRED.filter((name) => !env[name])
  if (missing.length === 0 || missing.length === REQUIRED.length) return []
  return missing.map((name) => `${name}: is required with the other TELEGRAM_ settings`)
}

/** The bot's settings, or null when the site has no bot. */
export function telegramConfig(env: TelegramFields): TelegramConfig | null {
  const { TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME, TELEGRAM_WEBHOOK_SECRET } = env
  if (!TELEGRAM_BOT_TOKEN || !TELEGRAM_BOT_USERNAME || !TELEGRAM_WEBHOOK_SECRET) return null
  return {
    token: TELEGRAM_BOT_TOKEN,
    username: TELEGRAM_BOT_USERNAME,
    webhookSecret: TELEGRAM_WEBHOOK_SECRET,
    apiRoot: env.TELEGRAM_API_ROOT,
  }
}
