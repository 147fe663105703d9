import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { launchUrl } from '../support/telegram-launch.ts'
import { telegram, telegramUser } from './alert-fakes.ts'
import { createAuction, startSoon } from './auctions.ts'
import { base, newAccount } from './api.ts'
import { hydrated, phone, screenshot, setupBrowser } from './browser.ts'
import { uniqueName } from './people.ts'

// The site as the bot's Mini App (docs/rules.md#telegram-mini-app), against the fake Telegram the
// server is configured with (tests/e2e/global-setup.ts), which signs launch data as Telegram
// does. The page talks to Telegram's client through the bridge Telegram's own script uses
// (window.TelegramWebviewProxy on phones): each page here gets a stand-in for that client that
// keeps what the page asked of it and can press its buttons.
const browser = setupBrowser()

type Sent = [type: string, data: string]
declare global {
  interface Window {
    telegramClient: Sent[]
    Telegram: { WebView: { receiveEvent: (type: string, data?: unknown) => void } }
  }
}

/** A phone page inside Telegram's client. */
async function inTelegram() {
  const page = await browser.newPage({ ...phone, consented: true })
  await page.addInitScript(() => {
    window.telegramClient = []
    Object.assign(window, {
      TelegramWebviewProxy: {
        postEvent: (type: string, data: string) => window.telegramClient.push([type, data]),
      },
    })
  })
  return page
}

/** The last `type` event the page sent to Telegram's client, parsed. */
const lastEvent = async (page: Page, type: string) => {
  const sent = await page.evaluate(() => window.telegramClient)
  const found = sent.filter(([name]) => name === type).at(-1)
  return found ? (JSON.parse(found[1] || '{}') as Record<string, unknown>) : null
}

const appUrl = () => `${base()}/telegram-app`

describe('the Mini App', () => {
  test('links a Telegram account at the first launch, opens the auction of its button, bids with the main button; later launches sign in with no password', async () => {
    const { name } = await newAccount(uniqueName('tgapp'))
    const auction = await createAuction({
      title: `Мини-приложение ${uniqueName('tg')}`,
      startsInMs: 60 * 60 * 1000,
    })
    const from = telegramUser('ru')
    const initData = await telegram.launch(from, { startParam: `a_${auction.displayId}` })

    // Not linked, nobody signed in: the linking step, in place.
    const page = await inTelegram()
    await page.goto(launchUrl(appUrl(), initData))
    await page.getByText('Этот Telegram ещё не связан с аккаунтом').waitFor()
    await hydrated(page)
    await page.getByRole('link', { name: 'Войти' }).click()
    const panel = page.getByRole('tabpanel', { name: 'Вход' })
    await panel.getByLabel('Имя пользователя или email').fill(name)
    await panel.getByLabel('Пароль').fill('secret12')
    await panel.getByRole('button', { name: 'Войти' }).click()
    // Back in the Mini App: linked, and on to the auction its button named.
    await page.waitForURL((url) => url.pathname === `/auction/${encodeURI(auction.slug)}`, {
      timeout: 30_000,
    })
    await hydrated(page)

    // Telegram's look, drawn by the server from the first byte (no brand row with its gavel),
    // and kept by the page as it goes; Telegram's back button shows on this inner page.
    const served = await (await page.request.get(page.url())).text()
    expect(served).toContain('<html lang="ru" class="h-full" data-telegram="">')
    expect(served).not.toContain('lucide-gavel')
    await expect.poll(() => page.locator('html').getAttribute('data-telegram')).toBe('')
    await expect
      .poll(() => lastEvent(page, 'web_app_setup_back_button'))
      .toEqual({
        is_visible: true,
      })
    await expect.poll(() => lastEvent(page, 'web_app_ready')).not.toBeNull()

    // Live: Telegram's main button says "Bid", and pressing it bids.
    await startSoon(auction.id)
    await page.getByText('Активный', { exact: true }).first().waitFor({ timeout: 30_000 })
    await expect
      .poll(() => lastEvent(page, 'web_app_setup_main_button'))
      .toMatchObject({ is_visible: true, is_active: true, text: 'Сделать ставку' })
    await page.evaluate(() => window.Telegram.WebView.receiveEvent('main_button_pressed'))
    await page.getByText('Ставка принята').first().waitFor()
    await page.getByText('Вы лидируете').waitFor()
    await expect
      .poll(() => lastEvent(page, 'web_app_setup_main_button'))
      .toMatchObject({ is_active: false })
    await screenshot(page, 'telegram-app-auction-phone')

    // Another device, nobody signed in: Telegram's launch data alone signs the person in.
    const again = await inTelegram()
    await again.goto(launchUrl(appUrl(), await telegram.launch(from)))
    await again.waitForURL((url) => url.pathname === '/', { timeout: 30_000 })
    await hydrated(again)
    await again.locator('header').getByText('4 ставки').first().waitFor()
    await expect
      .poll(() => lastEvent(again, 'web_app_setup_back_button'))
      .toEqual({
        is_visible: false,
      })
  }, 120_000)

  test('launch data changed, too old or signed by another bot signs nobody in', async () => {
    const from = telegramUser('ru')
    const post = async (initData: string) => {
      const response = await fetch(appUrl(), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'accept-language': 'ru',
        },
        body: new URLSearchParams({ initData }),
        redirect: 'manual',
      })
      return {
        status: response.status,
        text: await response.text(),
        cookies: response.headers.getSetCookie(),
      }
    }
    const good = new URLSearchParams(await telegram.launch(from))
    const changed = new URLSearchParams(good)
    changed.set('user', JSON.stringify({ id: from.id + 1, first_name: 'Aida' }))
    const refusals = [
      [changed.toString(), 401, 'Данные запуска не от Telegram или изменены'],
      [
        await telegram.launch(from, { authDate: Math.floor(Date.now() / 1000) - 2 * 86_400 }),
        401,
        'Данные запуска устарели',
      ],
      [await telegram.launch(from, { otherBot: true }), 401, 'Данные запуска не от Telegram'],
      ['', 400, 'Telegram не передал данные запуска'],
      ['user=1&hash=zz', 401, 'Данные запуска не от Telegram'],
    ] as const
    for (const [initData, status, message] of refusals) {
      const answer = await post(initData)
      expect(answer.status, message).toBe(status)
      expect(answer.text).toContain(message)
      expect(answer.cookies).toEqual([])
    }
    // The same data unchanged is Telegram's: the step that links it (nobody signed in here).
    const linkStep = await post(good.toString())
    expect(linkStep.status).toBe(200)
    expect(linkStep.text).toContain('Этот Telegram ещё не связан')
  }, 60_000)

  test('without JavaScript it says how to open it and links to the site', async () => {
    const page = await browser.newPage({ ...phone, consented: true, javaScriptEnabled: false })
    await page.goto(appUrl())
    await page.getByText('Эта страница открывается внутри Telegram').waitFor()
    await page.getByRole('link', { name: 'Перейти на сайт' }).waitFor()
  })
})
