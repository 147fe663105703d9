import {
  GrammyError,
  InlineKeyboard,
  type ChatTypeContext,
  type Composer,
  type Context,
} from 'grammy'
import type { InlineKeyboardMarkup } from 'grammy/types'
import type { Engine } from '../../../engine/index.ts'
import { personOfChat } from '~/models/telegram-link.server.ts'
import { watchedAuctions } from '~/models/watch.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { log } from '~/utils/logger.server.ts'
import type { TelegramConfig } from '~/utils/env-telegram.server.ts'
import { act, auctionOfLot, auctionStatusLine, type TelegramAction } from './actions.server.ts'
import { buttonData, checkButton, type ButtonAction } from './callback-data.server.ts'
import { textsOf, type BotTexts } from './texts.server.ts'

// Bidding from the chat (docs/rules.md#telegram-buttons): the alerts' buttons (callback
// queries, https://core.telegram.org/bots/api#callbackquery), /bid <lot> and /watchlist's
// buttons. Each tap is answered with answerCallbackQuery; the message it was on is edited in
// place to show the auction's price and time left. Telegram delivers an update again when the
// webhook did not answer 2xx: a repeated callback query or /bid message is answered as the first
// one was and places nothing more.

const ACTION: Record<ButtonAction, TelegramAction> = { b: 'bid', p: 'prebid', u: 'unwatch' }
/** The line the bot adds under an alert after a tap starts with this. */
const STATUS_MARK = '⏱ '
/** How long a handled update is remembered: Telegram gives up redelivering long before. */
const ONCE_TTL_SECONDS = 24 * 60 * 60

type Once = { first: true } | { first: false; answer: string | null }

/** The first delivery of `key` goes on; a repeat gets the first one's answer (null: pending). */
async function onceOnly(key: string): Promise<Once> {
  const redis = getRedis()
  const taken = await redis.set(key, '', 'EX', ONCE_TTL_SECONDS, 'NX')
  if (taken === 'OK') return { first: true }
  const answer = await redis.get(key)
  return { first: false, answer: answer || null }
}

/** Runs `work` once per key: a repeat is answered with what the first one said. */
async function once(
  key: string,
  work: () => Promise<{ text: string; retry: boolean }>,
): Promise<{ text: string | null; repeat: boolean }> {
  const seen = await onceOnly(key)
  if (!seen.first) return { text: seen.answer, repeat: true }
  let result: { text: string; retry: boolean }
  try {
    result = await work()
  } catch (error) {
    // Nothing was decided: Telegram's next delivery tries again.
    await getRedis().del(key)
    throw error
  }
  if (result.retry) await getRedis().del(key)
  else await getRedis().set(key, result.text, 'EX', ONCE_TTL_SECONDS)
  return { text: result.text, repeat: false }
}

/** An alert's or a list's buttons for one auction, made for `userId`. */
export function auctionButtons(
  config: TelegramConfig,
  texts: Pick<BotTexts, 't'>,
  userId: string,
  auctionId: string,
  actions: readonly ButtonAction[],
  keyboard = new InlineKeyboard(),
) {
  const labels: Record<ButtonAction, string> = {
    b: texts.t('bot.buttons.bid'),
    p: texts.t('bot.buttons.prebid'),
    u: texts.t('bot.buttons.unwatch'),
  }
  for (const action of actions) {
    const data = buttonData(config, action, auctionId, userId)
    if (data) keyboard.text(labels[action], data)
  }
  return keyboard
}

/** Shows the auction's price and time left under the message the tap was on. */
async function showStatus(ctx: Context, engine: Engine, texts: BotTexts, auctionId: string) {
  const message = ctx.callbackQuery?.message
  if (!message || !('text' in message) || !message.text) return
  const status = await auctionStatusLine(engine, texts, auctionId)
  if (!status) return
  const base = message.text.split(`\n\n${STATUS_MARK}`)[0]!.trimEnd()
  const text = `${base}\n\n${STATUS_MARK}${status}`
  if (text === message.text) return
  try {
    await ctx.editMessageText(text, {
      reply_markup: message.reply_markup as InlineKeyboardMarkup | undefined,
      link_preview_options: { is_disabled: true },
    })
  } catch (error) {
    // The message is too old to edit, or another tap already showed the same: the answer went.
    if (!(error instanceof GrammyError) || error.error_code !== 400) throw error
    log.info('telegram alert not edited', { description: error.description })
  }
}

export function handleButtons(
  chats: Composer<ChatTypeContext<Context, 'private'>>,
  config: TelegramConfig,
  engine: Engine,
) {
  chats.on('callback_query:data', async (ctx) => {
    const texts = await textsOf(ctx)
    const query = ctx.callbackQuery
    const person = await personOfChat(ctx.from.id)
    if (!person)
      return void (await ctx.answerCallbackQuery({ text: texts.t('bot.buttonUnlinked') }))
    const check = checkButton(config, query.data, person.userId)
    if (!check.ok) {
      const text = texts.t(check.reason === 'stale' ? 'bot.buttonStale' : 'bot.buttonInvalid')
      return void (await ctx.answerCallbackQuery({ text }))
    }
    const { text } = await once(`tg:once:query:${query.id}`, () =>
      act(engine, texts, person.userId, ACTION[check.action], check.auctionId),
    )
    await ctx.answerCallbackQuery({ text: text ?? texts.t('bot.buttonWorking') })
    await showStatus(ctx, engine, texts, check.auctionId)
  })

  chats.command('bid', async (ctx) => {
    const texts = await textsOf(ctx)
    const { t } = texts
    const person = await personOfChat(ctx.chat.id)
    if (!person) return void (await ctx.reply(t('bot.notLinked')))
    const lot = ctx.match.trim()
    if (!lot) return void (await ctx.reply(t('bot.bidUsage')))
    const auction = await auctionOfLot(lot)
    if (!auction) return void (await ctx.reply(t('bot.lotNotFound', { lot: lot.slice(0, 40) })))
    const { text, repeat } = await once(
      `tg:once:message:${ctx.chat.id}:${ctx.message.message_id}`,
      () => act(engine, texts, person.userId, 'bid', auction.id),
    )
    if (repeat && text === null) return
    const status = await auctionStatusLine(engine, texts, auction.id)
    const lines = [
      `${auction.title}: ${text ?? ''}`,
      ...(status ? [`${STATUS_MARK}${status}`] : []),
    ]
    await ctx.reply(lines.join('\n\n'), {
      reply_markup: auctionButtons(config, texts, person.userId, auction.id, ['b']),
    })
  })

  chats.command('watchlist', async (ctx) => {
    const texts = await textsOf(ctx)
    const { t } = texts
    const person = await personOfChat(ctx.chat.id)
    if (!person) return void (await ctx.reply(t('bot.notLinked')))
    const auctions = await watchedAuctions(person.userId)
    if (auctions.length === 0) return void (await ctx.reply(t('bot.watchlistEmpty')))
    // Live first (the list's order), each with its button: bid on a live one, prebid on one to
    // come. The engine knows of a start before Postgres does.
    const states = await engine.getStates(auctions.map((a) => a.id))
    const keyboard = new InlineKeyboard()
    const origin = getEnv().PUBLIC_ORIGIN
    const lines = auctions.map((a, i) => {
      const live = (states[i]?.status ?? a.status) === 'live'
      const data = buttonData(config, live ? 'b' : 'p', a.id, person.userId)
      const label = `${i + 1}. ${t(live ? 'bot.buttons.bid' : 'bot.buttons.prebid')}`
      if (data) keyboard.text(label, data).row()
      const link = origin ? `\n${origin}/auction/${encodeURIComponent(a.slug)}` : ''
      return `${i + 1}. ${a.title} (${t(live ? 'bot.live' : 'bot.upcoming')})${link}`
    })
    await ctx.reply([t('bot.watchlistTitle'), ...lines].join('\n'), {
      reply_markup: keyboard,
      link_preview_options: { is_disabled: true },
    })
  })
}
