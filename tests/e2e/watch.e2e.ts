import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { unique } from './api.ts'
import { createAuction } from './auctions.ts'
import { open, screenshot, setupBrowser } from './browser.ts'
import { newUser } from './people.ts'

// The watch toggle (docs/rules.md#watchlist) on the auction page and the profile's list of
// watched auctions, with JavaScript (a fetcher, in place) and without it (a form post that comes
// back with a toast).
const browser = setupBrowser()

const toggle = (page: Page) => page.getByTestId('watch-toggle').first()
const watchlist = (page: Page) => page.getByRole('region', { name: 'Избранные аукционы' })

async function pressedAfterClick(page: Page, name: string, pressed: 'true' | 'false') {
  await toggle(page).click()
  await page
    .getByRole('button', { name, pressed: pressed === 'true' })
    .first()
    .waitFor()
  expect(await toggle(page).getAttribute('aria-pressed')).toBe(pressed)
  // The star changes at once; the site has it once the toggle is no longer busy.
  await expect.poll(() => toggle(page).getAttribute('aria-busy')).toBe('false')
}

describe('watch toggle', () => {
  test('with JavaScript it changes in place, and the profile lists the auction', async () => {
    const auction = await createAuction({ title: `Слежу JS ${unique()}`, startsInMs: 3_600_000 })
    const page = await browser.newPage()
    await newUser(page, 'watchjs')
    await open(page, `/auction/${auction.slug}`)
    expect(await toggle(page).getAttribute('aria-pressed')).toBe('false')
    const url = page.url()
    await pressedAfterClick(page, 'Вы следите', 'true')
    expect(page.url()).toBe(url)

    await open(page, '/profile')
    await watchlist(page).getByRole('link', { name: auction.title }).waitFor()
    await screenshot(page, 'watchlist-js')
    await watchlist(page).getByRole('button', { name: 'Вы следите' }).click()
    await watchlist(page).getByRole('button', { name: 'Следить', pressed: false }).waitFor()
    // Once the site has it, the page's data is read again and the auction leaves the list.
    await watchlist(page).getByText('Вы пока ни за чем не следите').waitFor()
    await open(page, '/profile')
    await watchlist(page).getByText('Вы пока ни за чем не следите').waitFor()
  })

  test('without JavaScript the form posts and comes back with a toast', async () => {
    const auction = await createAuction({ title: `Слежу ${unique()}`, startsInMs: 5 * 60_000 })
    const page = await browser.newPage({ javaScriptEnabled: false })
    await newUser(page, 'watchnojs')
    await open(page, `/auction/${auction.slug}`)
    await toggle(page).click()
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/auction/${auction.slug}`)
    await page.getByText('Аукцион добавлен в избранное').first().waitFor()
    expect(await toggle(page).getAttribute('aria-pressed')).toBe('true')

    await open(page, '/auctions')
    const card = page.getByRole('article').filter({ hasText: auction.title })
    expect(await card.getByTestId('watch-toggle').getAttribute('aria-pressed')).toBe('true')
    await card.getByTestId('watch-toggle').click()
    await page.getByText('Аукцион убран из избранного').first().waitFor()

    await open(page, '/profile')
    await watchlist(page).getByText('Вы пока ни за чем не следите').waitFor()
    await screenshot(page, 'watchlist-nojs')
  })
})
