import { autoRetry } from '@grammyjs/auto-retry'
import { Bot, Keyboard } from 'grammy'
import type { Engine } from '../../../engine/index.ts'
import {
  linkChat,
  personOfChat,
  unlinkChat,
  type LinkOutcome,
} from '~/models/telegram-link.server.ts'
import { verifyPhone } from '~/models/verified-phone.server.ts'
import { FREE_BIDS } from '~/models/user.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import type { TelegramConfig } from '~/utils/env-telegram.server.ts'
import { setCommandsMenu } from './commands.server.ts'
import { textsOf } from './texts.server.ts'
import { handleButtons } from './buttons.server.ts'

// The site's bot (docs/rules.md#telegram), on grammY (https://grammy.dev): /start <token>
// links the chat, /watchlist, /balance, /stop and /help answer in the person's language, and
// the contact button verifies their phone (docs/rules.md#verified-phone-and-free-bids). Only
// private chats are answered. Its answers survive Telegram's flood limit: grammY's auto-retry
// plugin (https://grammy.dev/plugins/auto-retry) waits out a 429's `retry_after` and sends the
// answer again (docs/decisions/076-alerts-a-person-can-trust.md).

const refusals: Record<Exclude<LinkOutcome, { ok: true }>['reason'], string> = {
  invalid: 'bot.linkInvalid',
  expired: 'bot.linkExpired',
  used: 'bot.linkUsed',
  chatTaken: 'bot.chatTaken',
}

const phoneKeyboard = (label: string) => new Keyboard().requestContact(label).resized().oneTime()

async function usernameOf(userId: string) {
  const user = await getPrisma().user.findUnique({
    where: { id: userId },
    select: { username: true },
  })
  return user?.username ?? ''
}

/**
 * How the bot's answers are sent again: a 429 is waited out when Telegram asks for at most
 * MAX_WAIT_SECONDS (the answer is sent inside Telegram's webhook call, which waits for it), a
 * 5xx or a network failure is tried again after grammY's back-off, twice at most.
 */
const RETRIES = { maxRetryAttempts: 2, maxDelaySeconds: 10 }
/** A request Telegram has not answered within this long fails (grammY's default is 500 s). */
const TIMEOUT_SECONDS = 10

export function createBot(config: TelegramConfig, engine: Engine) {
  const bot = new Bot(config.token, {
    client: { apiRoot: config.apiRoot, timeoutSeconds: TIMEOUT_SECONDS },
  })
  bot.api.config.use(autoRetry(RETRIES))
  const chats = bot.chatType('private')

  chats.command('start', async (ctx) => {
    const { t, language } = await textsOf(ctx)
    const token = ctx.match.trim()
    let userId: string
    if (token) {
      const outcome = await linkChat(token, {
        chatId: ctx.chat.id,
        telegramUserId: ctx.from.id,
        language,
      })
      if (!outcome.ok) return void (await ctx.reply(t(refusals[outcome.reason])))
      userId = outcome.userId
    } else {
      const person = await personOfChat(ctx.chat.id)
      if (!person) return void (await ctx.reply(t('bot.notLinked')))
      userId = person.userId
    }
    const username = await usernameOf(userId)
    await ctx.reply(
      `${t(token ? 'bot.linked' : 'bot.alreadyLinked', { username })}\n\n${t('bot.askPhone')}`,
      {
        reply_markup: phoneKeyboard(t('bot.sharePhone')),
      },
    )
  })

  chats.command('stop', async (ctx) => {
    const { t } = await textsOf(ctx)
    const unlinked = await unlinkChat(ctx.chat.id)
    await ctx.reply(t(unlinked ? 'bot.stopped' : 'bot.notLinked'), {
      reply_markup: { remove_keyboard: true },
    })
  })

  chats.command('help', async (ctx) => {
    const { t } = await textsOf(ctx)
    const person = await personOfChat(ctx.chat.id)
    await ctx.reply(person ? t('bot.help') : `${t('bot.help')}\n\n${t('bot.notLinked')}`)
  })

  chats.command('balance', async (ctx) => {
    const { t } = await textsOf(ctx)
    const person = await personOfChat(ctx.chat.id)
    if (!person) return void (await ctx.reply(t('bot.notLinked')))
    await ctx.reply(t('bot.balance', { count: await engine.getBalance(person.userId) }))
  })

  handleButtons(chats, config, engine)

  chats.on('message:contact', async (ctx) => {
    const { t } = await textsOf(ctx)
    const person = await personOfChat(ctx.chat.id)
    if (!person) return void (await ctx.reply(t('bot.notLinked')))
    const { contact } = ctx.message
    // Only the sender's own contact, sent with the button, proves the number is theirs.
    if (contact.user_id !== ctx.from.id) return void (await ctx.reply(t('bot.phoneNotOwn')))
    const verified = await verifyPhone(engine, person.userId, contact.phone_number)
    if (!verified.ok) return void (await ctx.reply(t('bot.phoneNotKyrgyz')))
    const text = verified.granted
      ? t('bot.phoneGranted', { phone: verified.phone, count: FREE_BIDS })
      : t('bot.phoneVerified', { phone: verified.phone })
    await ctx.reply(text, { reply_markup: { remove_keyboard: true } })
  })

  chats.on('message', async (ctx) => {
    const { t } = await textsOf(ctx)
    const person = await personOfChat(ctx.chat.id)
    await ctx.reply(person ? t('bot.help') : t('bot.notLinked'))
  })

  return bot
}

type Shared = {
  bot: Bot
  engine: Engine
  token: string
  ready: Promise<void>
  menu?: Promise<void>
}
let shared: Shared | undefined

/**
 * The process's bot for this engine, initialised (getMe) once; its commands menu is set once
 * beside the updates (a failure is logged and tried again with the next update, never holds one).
 */
export async function getBot(config: TelegramConfig, engine: Engine): Promise<Bot> {
  if (!shared || shared.engine !== engine || shared.token !== config.token) {
    const bot = createBot(config, engine)
    shared = { bot, engine, token: config.token, ready: bot.init() }
    shared.ready.catch(() => {
      if (shared?.bot === bot) shared = undefined
    })
  }
  const current = shared
  await current.ready
  current.menu ??= setCommandsMenu(current.bot.api).catch((error: unknown) => {
    log.warn('telegram commands menu not set', errorFields(error))
    current.menu = undefined
  })
  return current.bot
}
