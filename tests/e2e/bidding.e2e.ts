import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import {
  anyFinished,
  createAuction,
  createBotDrivenAuction,
  shownAuctionIds,
  startSoon,
  untilLive,
} from './auctions.ts'
import { call } from './api.ts'
import { open, phone, screenshot, setupBrowser } from './browser.ts'
import { login, newUser, register, uniqueName } from './people.ts'

// People bidding on one live auction (docs/rules.md#bidding), JS on and JS off.
const browser = setupBrowser()

const fact = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`).first()
const price = (page: Page) => fact(page, 'Текущая цена')
const bidButton = (page: Page) => page.getByRole('button', { name: 'Сделать ставку' })
/** The winner the page names, or null while it names none. */
const winnerOf = (page: Page) =>
  fact(page, 'Победитель')
    .textContent()
    .catch(() => null)

async function waitLive(page: Page, timeout = 15_000) {
  await page.getByText('Активный', { exact: true }).first().waitFor({ timeout })
  await bidButton(page).waitFor()
}

describe('bidding with JavaScript', () => {
  test('two people bid in turn, see each other without reloading, and both see the winner', async () => {
    const alice = await browser.newPage()
    const bob = await browser.newPage({ ...phone, consented: true })
    const aliceName = await newUser(alice, 'alice')
    const bobName = await newUser(bob, 'bob')
    // Made once the people are ready: a live auction without bids ends 10 s after its start, so
    // it starts once both pages are surely open (opening them took over 14 s on a busy machine).
    const auction = await createAuction({
      title: `Дуэль ${uniqueName('duel')}`,
      startsInMs: 15_000,
    })
    await open(alice, `/auction/${auction.slug}`)
    await open(bob, `/auction/${auction.slug}`)
    // The start arrives through the socket: no reload.
    await Promise.all([waitLive(alice, 30_000), waitLive(bob, 30_000)])

    await bidButton(alice).click()
    await alice.getByText('Ставка принята').first().waitFor()
    // Alice leads: her button is disabled and says why.
    await alice.getByText('Вы лидируете').waitFor()
    expect(await bidButton(alice).isDisabled()).toBe(true)
    // Bob sees her bid, the price and the timer reset without reloading.
    await expect.poll(() => price(bob).textContent()).toBe('0,01 сом')
    await expect.poll(() => fact(bob, 'Последняя ставка').textContent()).toBe(aliceName)
    await bob.getByRole('region', { name: 'История ставок' }).getByText(aliceName).first().waitFor()
    expect(await bidButton(bob).isEnabled()).toBe(true)

    await bidButton(bob).click()
    await expect.poll(() => price(alice).textContent()).toBe('0,02 сом')
    await expect.poll(() => fact(alice, 'Последняя ставка').textContent()).toBe(bobName)
    // Now Alice may bid again and Bob may not.
    await expect.poll(() => bidButton(alice).isEnabled()).toBe(true)
    expect(await bidButton(bob).isDisabled()).toBe(true)
    const timer = await alice.getByRole('timer').textContent()
    expect(timer).toMatch(/^00:(0\d|10)$/)
    // Each bid costs one: the header shows 4 left.
    await expect
      .poll(() => bob.locator('header').textContent(), { timeout: 5000 })
      .toContain('4 ставки')

    // Ten seconds without bids: the auction finishes and both see Bob as the winner.
    await expect.poll(() => winnerOf(alice), { timeout: 20_000 }).toBe(bobName)
    await expect.poll(() => winnerOf(bob), { timeout: 5_000 }).toBe(bobName)
    await alice.getByText('Завершён', { exact: true }).first().waitFor()
    expect(await bidButton(alice).count()).toBe(0)
    await screenshot(bob, 'bidding-finished-phone')
    expect(
      await bob.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0)

    // Bob's profile lists the win; Alice's bid history has her bid no longer among active ones.
    await open(bob, '/profile')
    await bob
      .getByRole('region', { name: 'Выигранные аукционы' })
      .getByText(auction.title)
      .waitFor()
    await open(alice, '/bid-history')
    await alice.getByText('Нет ставок в идущих аукционах.').waitFor()
  }, 90_000)

  test('home page cards follow their auctions, take bids and prebids, and open the auction', async () => {
    const name = uniqueName('cards')
    const alice = await browser.newPage()
    const bob = await browser.newPage({ ...phone, consented: true })
    const aliceName = await newUser(alice, 'alice')
    const bobName = await newUser(bob, 'bob')
    // Started once both pages are open (startSoon below): a live auction without bids ends 10 s
    // after its start.
    const live = await createAuction({ title: `Карточка ${name}`, startsInMs: 60 * 60 * 1000 })
    const later = await createAuction({ title: `Позже ${name}`, startsInMs: 60 * 60 * 1000 })
    // Every upcoming auction is shown (other tests' auctions may start sooner than this one).
    await open(alice, '/?upcoming=99&live=500')
    await open(bob, '/?upcoming=99&live=500')
    const card = (page: Page, title = live.title) => page.locator('article', { hasText: title })
    const cardPrice = (page: Page) => card(page).locator('p').nth(0)
    // The card's bid or prebid button (its other button is the watch toggle).
    const cardBid = (page: Page, title = live.title) =>
      card(page, title).locator('form[action="/resources/bid"] button')
    await alice.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true))
    // The page reads its data again when an auction it shows finishes (its card shows the
    // winner), whoever's test made it; a bid alone never makes it read (app/utils/revalidation.ts).
    const shown = await shownAuctionIds()
    const dataRequests: URL[] = []
    alice.on('request', (request) => {
      const url = new URL(request.url())
      if (request.method() === 'GET' && url.pathname.endsWith('.data')) dataRequests.push(url)
    })

    // The start arrives through the socket: the card turns live without a reload, and Alice
    // bids at once (a live auction without bids ends 10 s after its start).
    await card(alice).getByRole('button', { name: 'Предварительная ставка' }).waitFor()
    await card(bob).getByRole('button', { name: 'Предварительная ставка' }).waitFor()
    await startSoon(live.id)
    await bidButton(alice).and(card(alice).getByRole('button')).waitFor({ timeout: 15_000 })
    await card(alice).getByRole('button', { name: 'Сделать ставку' }).click()
    await alice.getByText('Ставка принята').first().waitFor()
    await card(alice).getByText('Вы лидируете').waitFor()
    expect(await cardBid(alice).isDisabled()).toBe(true)
    expect(await cardPrice(alice).textContent()).toBe('0,01 сом')
    // Bob's card turned live and hears of it; he bids, and Alice's card follows.
    await bidButton(bob).and(card(bob).getByRole('button')).waitFor({ timeout: 15_000 })
    await expect.poll(() => cardPrice(bob).textContent()).toBe('0,01 сом')
    await card(bob).getByText(aliceName).waitFor()
    await card(bob).getByRole('button', { name: 'Сделать ставку' }).click()
    await bob.getByText('Ставка принята').first().waitFor()
    await expect.poll(() => cardPrice(alice).textContent()).toBe('0,02 сом')
    await card(alice).getByText(bobName).waitFor()
    await expect.poll(() => cardBid(alice).isEnabled()).toBe(true)
    expect(await card(alice).getByRole('timer').textContent()).toMatch(/^00:(0\d|10)/)
    // The bid was charged: the header shows the new balance the socket brought, and no data
    // was read again for it (the page's hundred cards are not read again after every bid): a
    // data request is the page's answer to an auction it shows finishing, and to nothing else.
    await expect.poll(() => alice.locator('header').textContent()).toContain('4 ставки')
    const readAgain = dataRequests.map((url) => url.pathname + url.search)
    if (readAgain.length > 0) {
      expect(await anyFinished(shown), `read with no auction finished: ${readAgain}`).toBe(true)
    }

    // A prebid from an upcoming card.
    await card(alice, later.title).getByRole('button', { name: 'Предварительная ставка' }).click()
    await alice.getByText('Предварительная ставка принята', { exact: false }).first().waitFor()
    await card(alice, later.title).getByText('Предварительная ставка сделана').waitFor()
    expect(await cardBid(alice, later.title).isDisabled()).toBe(true)

    // A card's title opens the auction inside the page, without loading a new document (the
    // upcoming one: the live one may have finished by now on a slow machine). Taken from the
    // keyboard: when the live card ends it leaves its row and the cards below move up, so a
    // pointer's click aimed a moment before can land beside the link.
    await card(alice, later.title).getByRole('link', { name: later.title }).press('Enter')
    await alice.waitForURL((url) => decodeURIComponent(url.pathname) === `/auction/${later.slug}`)
    await alice.getByRole('heading', { level: 1, name: later.title }).waitFor()
    expect(await alice.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
      true,
    )
  }, 90_000)

  test('a prebid on an upcoming auction becomes the first bid at the start', async () => {
    const page = await browser.newPage()
    await newUser(page, 'pre')
    // Made once the person is ready: the prebid must come before the start.
    const auction = await createAuction({
      title: `Предстарт ${uniqueName('pre')}`,
      startsInMs: 15_000,
    })
    await open(page, `/auction/${auction.slug}`)
    await page.getByRole('button', { name: 'Предварительная ставка' }).click()
    await page.getByText('Предварительная ставка сделана').waitFor()
    expect(await page.getByRole('button', { name: 'Предварительная ставка' }).isDisabled()).toBe(
      true,
    )
    await open(page, '/bid-history')
    await page.getByRole('region', { name: 'Мои представки' }).getByText(auction.title).waitFor()
    await untilLive(auction.id, 30_000)
    await open(page, `/auction/${auction.slug}`)
    await waitLive(page)
    await expect.poll(() => price(page).textContent(), { timeout: 10_000 }).toBe('0,01 сом')
    await page.getByText('Вы лидируете').waitFor()
  }, 60_000)
})

test("the header's balance follows a bid and a prebid while the live connection is away", async () => {
  const name = uniqueName('nosocket')
  const page = await browser.newPage()
  // Every live-update connection (WebSocket, then long polling) is refused: only the page's
  // own answers reach it.
  await page.routeWebSocket(/\/socket\.io\//, (socket) => socket.close())
  await page.route('**/socket.io/**', (route) => route.abort())
  await newUser(page, 'nosocket')
  await open(page, '/')
  await expect.poll(() => page.locator('header').textContent()).toContain('5 ставок')
  // Kept live by bots: an auction nobody bids on ends 10 s after its start, which a busy machine
  // can spend opening the page.
  const live = await createBotDrivenAuction(`Без связи ${name}`)
  const later = await createAuction({ title: `Позже ${name}`, startsInMs: 60 * 60 * 1000 })
  await untilLive(live.id)
  await open(page, `/auction/${live.slug}`)
  await waitLive(page)
  await page.getByText('Нет соединения').first().waitFor()
  await bidButton(page).click()
  await page.getByText('Ставка принята').first().waitFor()
  await expect.poll(() => page.locator('header').textContent()).toContain('4 ставки')
  await open(page, `/auction/${later.slug}`)
  await page.getByRole('button', { name: 'Предварительная ставка' }).click()
  await page.getByText('Предварительная ставка принята', { exact: false }).first().waitFor()
  await expect.poll(() => page.locator('header').textContent()).toContain('3 ставки')
}, 60_000)

describe('bidding without JavaScript', () => {
  test('browse, paginate, log in, bid and see the new price', async () => {
    const setup = await browser.newPage()
    const name = uniqueName('nojsbid')
    await register(setup, name)

    // Enough upcoming auctions for a second page of 12.
    for (let i = 0; i < 13; i++) {
      await createAuction({ title: `Позже ${name} ${i}`, startsInMs: 3 * 60 * 60 * 1000 })
    }

    const page = await browser.newPage({ javaScriptEnabled: false })
    await open(page, '/auctions')
    await page.getByRole('heading', { level: 1 }).waitFor()
    const pages = page.getByRole('navigation', { name: 'Страницы' })
    await pages.getByRole('link', { name: 'Вперёд' }).first().click()
    await page.waitForURL((url) => url.searchParams.get('page') === '2')
    expect(await page.locator('article').count()).toBeGreaterThan(0)
    await login(page, name)
    // Started only now: a live auction without bids ends 10 s after its start, and browsing on
    // a busy machine can take that long.
    const auction = await createAuction({ title: `Без скриптов ${name}`, startsInMs: 500 })
    await untilLive(auction.id)
    await open(page, `/auction/${auction.slug}`)
    await page.getByText('Активный', { exact: true }).first().waitFor()
    // A live page refreshes itself without JavaScript.
    expect(await page.locator('noscript').first().innerHTML()).toContain('http-equiv="refresh"')
    await bidButton(page).click()
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/auction/${auction.slug}`)
    await page.getByText('Ставка принята').first().waitFor()
    expect(await price(page).textContent()).toBe('0,01 сом')
    expect(await fact(page, 'Последняя ставка').textContent()).toBe(name)
    expect(await bidButton(page).isDisabled()).toBe(true)
    // One bid was charged.
    await open(page, `/auction/${auction.slug}`)
    expect(await page.locator('header').textContent()).toContain('4 ставки')
    await screenshot(page, 'bidding-nojs')
  }, 60_000)
})

test('a bid from a home page card without JavaScript comes back to the home page', async () => {
  const setup = await browser.newPage()
  const name = uniqueName('homebid')
  await register(setup, name)
  const page = await browser.newPage({ javaScriptEnabled: false })
  await login(page, name)
  // Kept live by bots: an auction nobody bids on ends 10 s after its start, which a busy machine
  // can spend between the start and the click.
  const auction = await createBotDrivenAuction(`С главной ${name}`)
  await untilLive(auction.id)
  await open(page, '/?live=500')
  const card = page.locator('article', { hasText: auction.title })
  await card.getByRole('button', { name: 'Сделать ставку' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await page.getByText('Ставка принята').first().waitFor()
  // The bots may have bid after it: the bid is among the auction's bids.
  await expect
    .poll(
      async () =>
        JSON.stringify((await call(`/api/auctions/${auction.id}/bids`, { method: 'GET' })).json),
      { timeout: 10_000 },
    )
    .toContain(`"${name}"`)
}, 60_000)
