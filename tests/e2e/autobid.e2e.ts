import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { call, newAccount, unique } from './api.ts'
import { createAuction, keepLive, openStarting, setBalance } from './auctions.ts'
import { open, screenshot, setupBrowser } from './browser.ts'
import { newUser, signIn } from './people.ts'

// The auto-bidder (docs/decisions/015-auto-bidder.md) against the production server and its
// own engine workers.
const browser = setupBrowser()

async function fundedAccount(balance: number) {
  const account = await newAccount()
  await setBalance(account.id, balance)
  return account
}

const bidBalance = async (cookie: string) =>
  ((await call('/api/auth/me', { method: 'GET', cookie })).json.user as { bidBalance: number })
    .bidBalance

const status = (page: Page) => page.getByRole('status').filter({ hasText: 'Автоставщик работает' })

describe('auto-bidder without JavaScript', () => {
  test('a user starts an auto-bidder on a live auction, sees it active and the reserve taken, then stops it', async () => {
    const auction = await createAuction({ title: `Автоставка ${unique()}`, startsInMs: 300 })
    const user = await fundedAccount(20)
    // Two others keep it live until the user starts the auto-bidder, however long the pages take.
    const stopKeeping = keepLive(
      auction.id,
      [await fundedAccount(50), await fundedAccount(50)],
      8_000,
    )
    const page = await browser.newPage({ javaScriptEnabled: false })
    await signIn(page, user.name)
    await open(page, `/auction/${auction.slug}`)
    await page.getByText('Активный', { exact: true }).first().waitFor({ timeout: 15_000 })

    const panel = page.getByRole('region', { name: 'Автоставщик' })
    await panel.getByLabel('Число бидов').fill('6')
    await stopKeeping()
    await panel.getByRole('button', { name: 'Запустить автоставщик' }).click()
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/auction/${auction.slug}`)
    await page.getByText('Автоставщик запущен. Бидов в запасе: 6.').first().waitFor()
    expect(await status(page).textContent()).toMatch(/Осталось бидов: [56], сделано ставок: [01]/)
    expect(await page.locator('header').textContent()).toContain('14 ставок')
    await screenshot(page, 'autobid-nojs')

    // Within one timer run (10 s) the server's worker bids for the user in the last seconds.
    await expect
      .poll(
        async () => {
          await open(page, `/auction/${auction.slug}`)
          return status(page).textContent()
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toContain('Осталось бидов: 5, сделано ставок: 1.')
    const history = page.getByRole('region', { name: 'История ставок' })
    await history.getByText(user.name).first().waitFor()

    await page.getByRole('button', { name: 'Остановить' }).click()
    await page.getByText('Автоставщик остановлен. Возвращено бидов: 5.').first().waitFor()
    expect(await status(page).count()).toBe(0)
    expect(await bidBalance(user.cookie)).toBe(19)
  }, 60_000)
})

describe('auto-bidder with JavaScript', () => {
  test('the panel follows the bids placed for the user without reloading', async () => {
    const page = await browser.newPage()
    await newUser(page, 'autobid')
    // Started once its page is open: a live auction without bids ends 10 s after its start.
    await openStarting(page, `Автоставка JS ${unique()}`)
    await page.getByText('Активный', { exact: true }).first().waitFor({ timeout: 15_000 })
    const panel = page.getByRole('region', { name: 'Автоставщик' })
    await panel.getByLabel('Число бидов').fill('3')
    await panel.getByRole('button', { name: 'Запустить автоставщик' }).click()
    await page.getByText('Автоставщик запущен. Бидов в запасе: 3.').first().waitFor()
    await expect.poll(() => page.locator('header').textContent()).toContain('2 ставки')
    // The worker's bid arrives over the socket; the page is never reloaded here.
    await status(page)
      .filter({ hasText: 'Осталось бидов: 2, сделано ставок: 1.' })
      .waitFor({ timeout: 15_000 })
  }, 60_000)
})

describe('auto-bidder API', () => {
  test('GET, POST and DELETE /api/auctions/{id}/autobid', async () => {
    const auction = await createAuction({ title: `Автоставка API ${unique()}`, startsInMs: 60_000 })
    const path = `/api/auctions/${auction.id}/autobid`
    expect((await call(path, { body: { bids: 3 } })).status).toBe(401)
    const user = await fundedAccount(4)
    expect(await call(path, { method: 'GET', cookie: user.cookie })).toMatchObject({
      status: 200,
      json: { autoBid: null },
    })
    expect(await call(path, { body: { bids: 0 }, cookie: user.cookie })).toMatchObject({
      status: 400,
      json: { error: 'Введите целое число бидов от 1 до 1000' },
    })
    expect(await call(path, { body: { bids: 5 }, cookie: user.cookie, lang: 'en' })).toMatchObject({
      status: 402,
      json: { error: 'Not enough bids — top up your bid balance' },
    })
    expect(
      (await call('/api/auctions/nope/autobid', { body: { bids: 1 }, cookie: user.cookie })).status,
    ).toBe(404)
    // Set before the start, and topped up.
    expect(await call(path, { body: { bids: 2 }, cookie: user.cookie })).toMatchObject({
      status: 200,
      json: { ok: true, bidBalance: 2, autoBid: { bidsLeft: 2, placed: 0 } },
    })
    expect(await call(path, { body: { bids: 1 }, cookie: user.cookie })).toMatchObject({
      status: 200,
      json: { bidBalance: 1, autoBid: { bidsLeft: 3, placed: 0 } },
    })
    expect(await call(path, { method: 'GET', cookie: user.cookie })).toMatchObject({
      json: { autoBid: { bidsLeft: 3, placed: 0 } },
    })
    expect(await call(path, { method: 'DELETE', cookie: user.cookie })).toMatchObject({
      status: 200,
      json: { ok: true, bidBalance: 4, autoBid: null },
    })
    expect((await call(path, { method: 'DELETE', cookie: user.cookie })).status).toBe(404)
    expect((await call(path, { method: 'PUT', cookie: user.cookie })).status).toBe(405)
  })
})
