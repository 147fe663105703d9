import { timingSafeEqual } from 'node:crypto'
import { GrammyError, HttpError } from 'grammy'
import type { Update } from 'grammy/types'
import type { Engine } from '../../../engine/index.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { apiError, json, readJson, translator } from '~/utils/api.server.ts'
import { getBot } from './bot.server.ts'
import { getTelegramConfig } from './config.server.ts'

// POST /api/telegram/webhook: Telegram delivers the bot's updates here
// (https://core.telegram.org/bots/api#setwebhook). Each call carries the secret given with
// setWebhook in X-Telegram-Bot-Api-Secret-Token; a call without it is refused before anything
// is read. Telegram repeats an update until it gets a 2xx answer.

export const SECRET_HEADER = 'X-Telegram-Bot-Api-Secret-Token'

function sameSecret(sent: string | null, expected: string) {
  if (sent === null) return false
  const a = Buffer.from(sent)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function isUpdate(value: unknown): value is Update {
  return (
    typeof value === 'object' &&
    value !== null &&
    Number.isSafeInteger((value as { update_id?: unknown }).update_id)
  )
}

export async function handleTelegramWebhook(request: Request, engine: Engine) {
  const config = getTelegramConfig()
  if (!config) return apiError(404, 'Not found')
  if (!sameSecret(request.headers.get(SECRET_HEADER), config.webhookSecret))
    return apiError(401, 'Unauthorized')
  let update: unknown
  try {
    update = await readJson(request, await translator(request))
  } catch (refusal) {
    if (refusal instanceof Response) return refusal
    throw refusal
  }
  if (!isUpdate(update)) return apiError(400, 'Expected a Telegram Update object')
  let bot: Awaited<ReturnType<typeof getBot>>
  try {
    bot = await getBot(config, engine)
  } catch (error) {
    // The bot could not introduce itself (getMe): Telegram sends the update again later.
    log.error('telegram bot not ready', errorFields(error))
    return apiError(503, 'Bot not ready; Telegram sends the update again')
  }
  try {
    await bot.handleUpdate(update)
  } catch (error) {
    const cause = (error as { error?: unknown }).error ?? error
    // Telegram refused or could not be reached for our answer: repeating the update would not
    // help. Anything else (Postgres away) asks Telegram to send it again.
    if (cause instanceof GrammyError || cause instanceof HttpError) {
      log.warn('telegram answer failed', { updateId: update.update_id, ...errorFields(cause) })
      return json({ ok: true })
    }
    log.error('telegram update failed', { updateId: update.update_id, ...errorFields(cause) })
    return apiError(500, 'Update not handled; Telegram sends it again')
  }
  return json({ ok: true })
}
