import type { Engine } from '../../../engine/index.ts'
import { setWatching } from '~/models/watch.server.ts'
import { decideBid } from '~/services/bidding.server.ts'
import { getAuctionByDisplayId } from '~/models/auction-rows.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { formatMoney } from '~/utils/money.ts'
import type { BotTexts } from './texts.server.ts'

// What a tap on an alert's button or /bid does (docs/rules.md#telegram-buttons): the same
// decisions as the site's (app/services/bidding.server.ts, the watchlist's), answered in the
// person's language in at most the 200 characters Telegram shows
// (https://core.telegram.org/bots/api#answercallbackquery).

export type TelegramAction = 'bid' | 'prebid' | 'unwatch'

/** Telegram's limit on a callback query's answer. */
export const ANSWER_MAX_CHARS = 200

export type ActionAnswer = {
  text: string
  /** The answer may change if asked again (a service was away): not kept for a repeat. */
  retry: boolean
}

const short = (text: string) =>
  text.length <= ANSWER_MAX_CHARS ? text : `${text.slice(0, ANSWER_MAX_CHARS - 1)}…`

export async function act(
  engine: Engine,
  texts: BotTexts,
  userId: string,
  action: TelegramAction,
  auctionId: string,
): Promise<ActionAnswer> {
  const { t } = texts
  if (action === 'unwatch') {
    try {
      await setWatching(engine, userId, auctionId, false)
      return { text: short(t('watch:removed')), retry: false }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      return { text: short(t(error.key)), retry: false }
    }
  }
  const decision = await decideBid(engine, action, auctionId, userId, texts.fixedT)
  if (!decision.ok)
    return { text: short(decision.message), retry: decision.reason === 'unavailable' }
  if (action === 'prebid') return { text: short(decision.message), retry: false }
  const price = formatMoney(decision.price, texts.currency)
  return { text: short(t('bot.bidPlaced', { price })), retry: false }
}

/**
 * The line an alert shows under its text after a tap: the auction's price and time left now,
 * or that it has finished; null when the engine no longer holds it.
 */
export async function auctionStatusLine(engine: Engine, texts: BotTexts, auctionId: string) {
  const [state, now] = await Promise.all([engine.getState(auctionId), engine.now()])
  if (!state) return null
  const price = formatMoney(state.price, texts.currency)
  if (state.status === 'finished') return texts.t('bot.statusFinished', { price })
  if (state.status === 'upcoming') return texts.t('bot.statusUpcoming', { price })
  const seconds =
    state.deadline === null ? 0 : Math.max(0, Math.ceil((state.deadline - now) / 1000))
  return texts.t('bot.statusLive', { price, seconds })
}

/** An auction by the lot number people see (its displayId, any letter case), for /bid. */
export async function auctionOfLot(lot: string) {
  const displayId = lot.trim().toUpperCase()
  return /^[A-Z0-9-]{1,40}$/.test(displayId) ? getAuctionByDisplayId(displayId) : null
}
