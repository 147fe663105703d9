import { createHmac, timingSafeEqual } from 'node:crypto'
import type { TelegramConfig } from '~/utils/env-telegram.server.ts'

// What an alert's button says when it is tapped (docs/rules.md#telegram-buttons): Telegram
// sends its callback_data back in the callback query (1-64 bytes,
// https://core.telegram.org/bots/api#inlinekeyboardbutton). It names the action, the auction,
// when it was made, and a signature over these and the person it was made for, keyed by the
// bot's own secret: a forged button, another person's button, or one older than a day is
// refused.

/** b: bid, p: prebid, u: stop watching. */
export type ButtonAction = 'b' | 'p' | 'u'
const ACTIONS = new Set<string>(['b', 'p', 'u'])

/** How long a button works after its message was sent. */
export const BUTTON_TTL_MS = 24 * 60 * 60 * 1000
/** Telegram's limit on callback_data, in bytes. */
export const CALLBACK_DATA_MAX_BYTES = 64
const SIGNATURE_CHARS = 16

const keyOf = (config: TelegramConfig) =>
  createHmac('sha256', config.webhookSecret).update('telegram buttons').digest()

const signatureOf = (config: TelegramConfig, body: string, userId: string) =>
  createHmac('sha256', keyOf(config))
    .update(`${body}|${userId}`)
    .digest('base64url')
    .slice(0, SIGNATURE_CHARS)

/** The callback_data of a button for `userId`, or null when it would not fit Telegram's 64 bytes. */
export function buttonData(
  config: TelegramConfig,
  action: ButtonAction,
  auctionId: string,
  userId: string,
  nowMs = Date.now(),
): string | null {
  const body = `${action}:${auctionId}:${Math.floor(nowMs / 1000).toString(36)}`
  const data = `${body}:${signatureOf(config, body, userId)}`
  return Buffer.byteLength(data) <= CALLBACK_DATA_MAX_BYTES ? data : null
}

export type ButtonCheck =
  { ok: true; action: ButtonAction; auctionId: string } | { ok: false; reason: 'invalid' | 'stale' }

/**
 * Checks a tapped button's data for `userId`, the person linked to the chat it was tapped in:
 * a button made for someone else is as invalid as a forged one.
 */
export function checkButton(
  config: TelegramConfig,
  data: string,
  userId: string,
  nowMs = Date.now(),
): ButtonCheck {
  const match = /^([a-z]):([A-Za-z0-9_-]{1,40}):([0-9a-z]{1,8}):([A-Za-z0-9_-]{16})$/.exec(data)
  if (!match || !ACTIONS.has(match[1]!)) return { ok: false, reason: 'invalid' }
  const [, action, auctionId, issued, signature] = match as unknown as [
    string,
    ButtonAction,
    string,
    string,
    string,
  ]
  const body = `${action}:${auctionId}:${issued}`
  if (!same(signatureOf(config, body, userId), signature)) return { ok: false, reason: 'invalid' }
  if (nowMs - parseInt(issued, 36) * 1000 > BUTTON_TTL_MS) return { ok: false, reason: 'stale' }
  return { ok: true, action, auctionId }
}

function same(a: string, b: string) {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
