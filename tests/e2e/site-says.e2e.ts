import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { call, newAccount, sessionOf } from './api.ts'
import { createAuction, createFinishedAuction, e2eDatabase, keepLive } from './auctions.ts'
import { open, phone, screenshot, setupBrowser, type PageOptions } from './browser.ts'
import { signIn } from './people.ts'

// What the site says matches what it does (docs/rules.md): the prebid and Buy It Now texts and
// bids that do not expire, each bid's status in an auction's history, and the admin dashboard's
// bots-in-auction card. With JavaScript on a phone and without it, in Russian and in English.
const browser = setupBrowser()

type Language = 'ru' | 'en'

/** A page in `language` (the language cookie as the language switcher sets it). */
async function pageIn(language: Language, options: PageOptions = {}) {
  const page = await browser.newPage({ ...options, consented: true })
  const url = browser.baseUrl()
  await page.context().addCookies([
    {
      name: 'lng',
      value: encodeURIComponent(Buffer.from(JSON.stringify(language)).toString('base64')),
      url,
    },
  ])
  return page
}

const modes = [
  { name: 'JavaScript on a phone, Russian', language: 'ru', options: phone },
  { name: 'no JavaScript, English', language: 'en', options: { javaScriptEnabled: false } },
] as const

const texts = {
  ru: {
    prebid: 'ставка списывается с баланса сразу',
    buyAfter: 'за вычетом 15 сом за каждую ставку, потраченную на него',
    noExpiry: 'нет срока действия',
  },
  en: {
    prebid: 'the bid is taken from your balance right away',
    buyAfter: 'less 15 som for every bid you spent on it',
    noExpiry: 'do not expire',
  },
} as const

describe('the rules say what the site does', () => {
  for (const mode of modes) {
    test(`prebids are paid when placed, losers may buy after the auction, bids do not expire (${mode.name})`, async () => {
      const page = await pageIn(mode.language, mode.options)
      const said = texts[mode.language]
      // The whole text of a page, the answers of its closed questions included.
      const text = async () =>
        ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ')
      await open(page, '/how-it-works')
      const howItWorks = await text()
      expect(howItWorks).toContain(said.prebid)
      expect(howItWorks).toContain(said.buyAfter)
      await open(page, '/auction-rules')
      expect(await text()).toContain(said.noExpiry)
      // Nowhere a validity the site does not enforce.
      for (const path of ['/how-it-works', '/support', '/auction-rules', '/terms-of-service']) {
        await open(page, path)
        expect(await text()).not.toMatch(/365/)
      }
    })
  }
})

async function bidWhenLive(auctionId: string, cookie: string) {
  await expect
    .poll(async () => (await call(`/api/auctions/${auctionId}/bid`, { cookie })).status, {
      timeout: 10_000,
    })
    .toBe(200)
}

const statusWords = {
  ru: { winning: 'Лидирует', outbid: 'Перебита', won: 'Выиграла', lost: 'Проиграла' },
  en: { winning: 'Winning', outbid: 'Outbid', won: 'Won', lost: 'Lost' },
} as const

/** The bidder and the status of each row of the auction page's bid history, newest first. */
async function historyRows(page: Page, language: Language) {
  const region = page.getByRole('region', {
    name: language === 'ru' ? 'История ставок' : 'Bid history',
  })
  const rows = region.locator('tbody tr')
  return (await rows.allInnerTexts()).map((text) => text.split('\t').map((cell) => cell.trim()))
}

test('each bid in an auction history shows its status, live and after the end', async () => {
  const [first, second] = [await newAccount(), await newAccount()]
  const admin = sessionOf(
    (await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })).cookie,
  )
  const auction = await createAuction({ title: `Статусы ставок ${Date.now().toString(36)}` })
  // Two others keep it live while the pages open, however long that takes on a busy machine;
  // then the two bids and what follows fit in one timer run.
  const keepers = [await newAccount(), await newAccount()]
  const stopKeeping = keepLive(auction.id, keepers, 8_000)
  const live = await pageIn('ru', phone)
  await open(live, `/auction/${auction.slug}`)
  const plain = await pageIn('en', { javaScriptEnabled: false })
  await stopKeeping()
  await bidWhenLive(auction.id, first.cookie)
  await bidWhenLive(auction.id, second.cookie)

  /** The two newest rows: the people's bids (the keepers' come before them). */
  const newest = async (page: Page, language: Language) =>
    (await historyRows(page, language)).slice(0, 2).map((row) => [row[0], row.at(-1)])
  const ru = statusWords.ru
  await expect
    .poll(() => newest(live, 'ru'))
    .toEqual([
      [second.name, ru.winning],
      [first.name, ru.outbid],
    ])
  await open(plain, `/auction/${auction.slug}`)
  const en = statusWords.en
  expect(await newest(plain, 'en')).toEqual([
    [second.name, en.winning],
    [first.name, en.outbid],
  ])

  // The admin ends it: the open page turns the statuses into won and lost by itself.
  expect((await call(`/api/admin/auctions/${auction.id}/end`, { cookie: admin })).status).toBe(200)
  await expect
    .poll(() => newest(live, 'ru'), { timeout: 10_000 })
    .toEqual([
      [second.name, ru.won],
      [first.name, ru.lost],
    ])
  await screenshot(live, 'bid-statuses-finished-phone')
  // The page is kept for a second by HTTP caches (docs/decisions/024-page-caching-by-http-rules.md).
  await expect
    .poll(
      async () => {
        await open(plain, `/auction/${auction.slug}`)
        return newest(plain, 'en')
      },
      { timeout: 10_000 },
    )
    .toEqual([
      [second.name, en.won],
      [first.name, en.lost],
    ])
})

describe('the bots-in-auction card on the admin dashboard', () => {
  for (const mode of modes) {
    test(`shows the chosen auction's bots with their bids and limits (${mode.name})`, async () => {
      const admin = sessionOf(
        (await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } }))
          .cookie,
      )
      const stamp = Date.now().toString(36)
      const withBots = await createAuction({ title: `Боты ${stamp}`, startsInMs: 120_000 })
      const without = await createAuction({ title: `Без ботов ${stamp}`, startsInMs: 125_000 })
      const bots = (await call('/api/admin/bots', { method: 'GET', cookie: admin })).json
        .bots as Array<{ id: string; username: string }>
      const [limited, unlimited] = bots
      for (const [bot, bidLimit] of [
        [limited!, 7],
        [unlimited!, 0],
      ] as const) {
        const assigned = await call(`/api/admin/auctions/${withBots.id}/bots`, {
          cookie: admin,
          body: { botId: bot.id, bidLimit },
        })
        expect(assigned.status).toBe(201)
      }
      // The card shows what the bot auction status call says.
      const status = (
        await call('/api/admin/bots/auction-status', { method: 'GET', cookie: admin })
      ).json as Record<string, Array<{ auctionId: string; currentBids: number; bidLimit: number }>>
      expect(status[limited!.id]).toContainEqual(
        expect.objectContaining({ auctionId: withBots.id, currentBids: 0, bidLimit: 7 }),
      )

      const page = await pageIn('ru', mode.options)
      await signIn(page, 'admin', 'admin123')
      if (mode.language === 'en') {
        await page.context().addCookies([
          {
            name: 'lng',
            value: encodeURIComponent(Buffer.from(JSON.stringify('en')).toString('base64')),
            url: browser.baseUrl(),
          },
        ])
      }
      await open(page, '/admin?botsPage=1')
      const words =
        mode.language === 'ru'
          ? { card: 'Боты в аукционе', auction: 'Аукцион', show: 'Показать', none: 'нет ботов' }
          : { card: 'Bots in an auction', auction: 'Auction', show: 'Show', none: 'No bots' }
      const card = page.getByRole('region', { name: words.card })
      const choose = async (auctionId: string) => {
        await card.getByLabel(words.auction, { exact: true }).selectOption(auctionId)
        await card.getByRole('button', { name: words.show }).click()
        await page.waitForURL((url) => url.searchParams.get('botsAuction') === auctionId)
      }
      await choose(withBots.id)
      // The dashboard's other pages are kept.
      expect(new URL(page.url()).searchParams.get('botsPage')).toBe('1')
      // The card shows the chosen auction once its data came (until then, the rows of the one
      // shown before, which may be another file's auction with the same bots).
      const rows = card.locator('tbody tr')
      const texts = async () =>
        (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()).sort()
      const noLimit = mode.language === 'ru' ? '0 без лимита' : '0 no limit'
      await expect
        .poll(async () => {
          const shown = await texts()
          return [
            shown.find((text) => text.includes(limited!.username))?.endsWith(' 0 7'),
            shown.find((text) => text.includes(unlimited!.username))?.endsWith(` ${noLimit}`),
          ]
        })
        .toEqual([true, true])
      expect(await rows.count()).toBe(2)
      await choose(without.id)
      await card.getByText(words.none).waitFor()
      if (mode.language === 'ru') await screenshot(page, 'admin-bots-in-auction-phone')
    })
  }
})

describe('winners of the day', () => {
  for (const mode of modes) {
    test(`the home page lists the five auctions that finished last with their winners (${mode.name})`, async () => {
      // The rule itself (the latest five however long ago, not the last 24 hours) is checked on a
      // quiet week's data in app/models/auction-rows.server.test.ts; here, what the page shows.
      const winner = await newAccount()
      const latest = await createFinishedAuction({
        title: `Победитель дня ${Date.now().toString(36)}`,
        winnerId: winner.id,
        finalPrice: 1_23,
      })
      const prisma = e2eDatabase()
      /** The five latest finished auctions with a winner, as the database has them now. */
      const latestFive = async () =>
        (
          await prisma.auction.findMany({
            where: {
              status: 'finished',
              OR: [{ winnerId: { not: null } }, { winnerBotName: { not: null } }],
            },
            orderBy: { endTime: 'desc' },
            take: 5,
            select: { title: true },
          })
        ).map((row) => row.title)
      const page = await pageIn(mode.language, mode.options)
      const block = page.locator('#winners')
      // Other test files finish auctions meanwhile: the block and the database agree once
      // nothing finished between the two looks.
      await expect
        .poll(
          async () => {
            await open(page, '/')
            const shown = await block.getByRole('link').allInnerTexts()
            return JSON.stringify(shown) === JSON.stringify(await latestFive()) ? shown : null
          },
          { timeout: 20_000 },
        )
        .toHaveLength(5)
      // Each with its winner's name and its final price.
      const shown = await block.getByRole('listitem').allInnerTexts()
      const unknown = mode.language === 'ru' ? 'неизвестно' : 'unknown'
      for (const item of shown) {
        expect(item.toLowerCase()).not.toContain(unknown)
        expect(item).toContain(mode.language === 'ru' ? 'Финальная цена' : 'Final price')
      }
      const mine = shown.find((text) => text.includes(latest.title))
      if (mine) expect(mine).toContain(winner.name)
      if (mode.language === 'ru') await screenshot(page, 'winners-of-the-day-phone')
    })
  }
})
