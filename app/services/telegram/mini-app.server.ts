import { createCookie } from '@remix-run/node'
import { linkTelegramUser, personOfChat } from '~/models/telegram-link.server.ts'
import { createSession } from '~/services/auth.server.ts'
import { getOptionalUserId } from '~/services/session.server.ts'
import { findAuctionSlug } from '~/models/auction-rows.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { checkInitData } from './init-data.server.ts'
import { botLanguage, getTelegramConfig } from './config.server.ts'

// The site opened as the bot's Mini App (docs/rules.md#telegram-mini-app): the launch data
// Telegram gave the page signs its linked person in with an ordinary session (logout and
// "log out on all devices" end it). An account not linked yet is linked to the person who
// signs in there; the page asks them to (the linking step).

/**
 * Pages opened inside Telegram say so in this cookie, so that the server draws them as
 * Telegram's look wants (no site header) from the first byte, with or without JavaScript.
 * Telegram's in-app browser keeps its own cookies: the phone's browser never gets it.
 */
const telegramCookie = createCookie('tg-app', { path: '/', httpOnly: true, sameSite: 'lax' })

export async function inTelegram(request: Request) {
  return (await telegramCookie.parse(request.headers.get('Cookie'))) === 1
}

/**
 * Where the Mini App goes once signed in: the auction its start parameter names (a t.me link's
 * `startapp=a_<displayId>`; Telegram allows A-Z a-z 0-9 _ - there),
 * else the page its button named (`to`, a path of this site: an alert's "Open"), else home.
 */
async function targetOf(startParam: string | null, to: string) {
  const displayId = /^a_([A-Za-z0-9-]{1,40})$/.exec(startParam ?? '')?.[1]
  const slug = displayId ? await findAuctionSlug(displayId) : null
  return slug ? `/auction/${encodeURIComponent(slug)}` : to
}

export type MiniAppLaunch =
  /** Signed in (or already): go on to `to` with these cookies. */
  | { ok: true; to: string; cookies: string[] }
  /** Telegram proved who this is, but no account is linked and nobody is signed in. */
  | { ok: false; reason: 'link' }
  /** Launch data that is not Telegram's for this bot, or too old; or no bot at all. */
  | { ok: false; reason: 'invalid' | 'expired' | 'chatTaken' | 'off' }

/** Signs in (and links, when someone is signed in) from launch data sent by the page. */
export async function launchMiniApp(
  request: Request,
  { clientIp }: { clientIp: string },
  initData: string,
  page = '/',
): Promise<MiniAppLaunch> {
  const config = getTelegramConfig()
  if (!config) return { ok: false, reason: 'off' }
  const check = checkInitData(initData, config.token)
  if (!check.ok) return { ok: false, reason: check.reason === 'expired' ? 'expired' : 'invalid' }
  const { user } = check
  const [person, signedIn, to] = await Promise.all([
    personOfChat(user.id),
    getOptionalUserId(request),
    targetOf(check.startParam, page),
  ])
  const mark = await telegramCookie.serialize(1, {
    secure: getEnv().NODE_ENV === 'production',
  })
  let userId = person?.userId
  if (!userId) {
    if (!signedIn) return { ok: false, reason: 'link' }
    const linked = await linkTelegramUser(signedIn, {
      chatId: user.id,
      telegramUserId: user.id,
      language: botLanguage(user.languageCode),
    })
    if (!linked.ok) return { ok: false, reason: 'chatTaken' }
    userId = signedIn
  }
  // The person Telegram vouches for is who is signed in here: another account's session on
  // this device is replaced.
  if (userId === signedIn) return { ok: true, to, cookies: [mark] }
  return { ok: true, to, cookies: [mark, await createSession(request, userId, clientIp)] }
}
