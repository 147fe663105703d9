import { expect, test } from 'vitest'
import { EnvError, parseEnv } from './env.server.ts'
import { telegramConfig } from './env-telegram.server.ts'

const base = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
}
const bot = {
  TELEGRAM_BOT_TOKEN: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
  TELEGRAM_BOT_USERNAME: '@penny_kg_bot',
  TELEGRAM_WEBHOOK_SECRET: 'a-long-webhook-secret_123',
}

test('without the bot’s settings the site has no bot', () => {
  expect(telegramConfig(parseEnv(base))).toBeNull()
})

test('the three settings make the bot; the API address defaults to Telegram’s', () => {
  expect(telegramConfig(parseEnv({ ...base, ...bot }))).toEqual({
    token: bot.TELEGRAM_BOT_TOKEN,
    username: 'penny_kg_bot',
    webhookSecret: bot.TELEGRAM_WEBHOOK_SECRET,
    apiRoot: 'https://api.telegram.org',
  })
  const local = parseEnv({ ...base, ...bot, TELEGRAM_API_ROOT: 'http://127.0.0.1:9999/' })
  expect(telegramConfig(local)?.apiRoot).toBe('http://127.0.0.1:9999')
})

test('some of them without the others, or a malformed one, stops the start naming it', () => {
  const start = (env: Record<string, string>) => () => parseEnv({ ...base, ...env })
  expect(start({ TELEGRAM_BOT_TOKEN: bot.TELEGRAM_BOT_TOKEN })).toThrow(
    new EnvError([
      'TELEGRAM_BOT_USERNAME: is required with the other TELEGRAM_ settings',
      'TELEGRAM_WEBHOOK_SECRET: is required with the other TELEGRAM_ settings',
    ]),
  )
  expect(start({ ...bot, TELEGRAM_BOT_TOKEN: 'nope' })).toThrow(/TELEGRAM_BOT_TOKEN: must look/)
  expect(start({ ...bot, TELEGRAM_WEBHOOK_SECRET: 'short' })).toThrow(/TELEGRAM_WEBHOOK_SECRET:/)
  expect(start({ ...bot, TELEGRAM_API_ROOT: 'ftp://x' })).toThrow(/TELEGRAM_API_ROOT:/)
})
