import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { openStarting } from './auctions.ts'
import { open, setupBrowser } from './browser.ts'
import { dismissOnboarding, register, uniqueName } from './people.ts'

// docs/rules.md#analytics: sign_up, view_auction and bid_placed reach the data layer (and
// the tag manager loads) only when the visitor allowed analytics in the cookie banner.
const browser = setupBrowser()

async function visitor(choice: 'Принять все' | 'Только необходимые') {
  const page = await browser.newPage()
  // The container itself is a third party: never fetched in tests.
  await page.route('https://www.googletagmanager.com/**', (route) => route.abort())
  await open(page, '/')
  await page.getByRole('button', { name: choice }).click()
  await page.waitForLoadState('networkidle')
  return page
}

const events = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: Array<Record<string, unknown>> }).dataLayer ?? []).filter(
      (entry) => typeof entry.event === 'string' && !String(entry.event).startsWith('gtm.'),
    ),
  )

const tagManagerScripts = (page: Page) =>
  page.locator('script[src^="https://www.googletagmanager.com/gtm.js?id=GTM-E2ETEST"]').count()

describe('analytics with consent', () => {
  test('allowed: sign_up, view_auction and bid_placed are recorded; the tag manager loads', async () => {
    const page = await visitor('Принять все')
    await register(page, uniqueName('an'))
    await expect.poll(() => events(page)).toEqual([{ event: 'sign_up' }])
    expect(await tagManagerScripts(page)).toBe(1)
    await dismissOnboarding(page)
    const auction = await openStarting(page, `Аналитика ${uniqueName('an')}`)
    await expect
      .poll(() => events(page))
      .toEqual([{ event: 'view_auction', auction_id: auction.id, auction_name: auction.title }])
    await page.getByRole('button', { name: 'Сделать ставку' }).click()
    await page.getByText('Вы лидируете').waitFor()
    await expect
      .poll(() => events(page))
      .toContainEqual({
        event: 'bid_placed',
        auction_id: auction.id,
        value: 0.01,
        currency: 'KGS',
      })
  })

  test('necessary only: nothing is recorded and no tag manager', async () => {
    const page = await visitor('Только необходимые')
    await register(page, uniqueName('na'))
    await dismissOnboarding(page)
    await openStarting(page, `Без аналитики ${uniqueName('na')}`)
    await page.getByRole('button', { name: 'Сделать ставку' }).click()
    await page.getByText('Вы лидируете').waitFor()
    expect(await events(page)).toEqual([])
    expect(await tagManagerScripts(page)).toBe(0)
  })
})
