import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { base, call, newAccount, unique } from './api.ts'
import { createAuction, outboxWritten, setBalance, startSoon, untilLive } from './auctions.ts'
import { open, phone, screenshot, setupBrowser } from './browser.ts'

// An auction's record of bids as a page (docs/fair-play.md): reached from the auction page, on a
// phone, with and without JavaScript; its CSV is the same record.

const browser = setupBrowser()

let auction: { id: string; slug: string; title: string }
let bidders: string[]

beforeAll(async () => {
  auction = await createAuction({ title: `Запись ${unique()}`, startsInMs: 60 * 60 * 1000 })
  const [early, late] = await Promise.all([newAccount(), newAccount()])
  await Promise.all([setBalance(early.id, 3), setBalance(late.id, 3)])
  expect((await call(`/api/auctions/${auction.id}/prebid`, { cookie: early.cookie })).status).toBe(
    200,
  )
  await startSoon(auction.id)
  await untilLive(auction.id)
  expect((await call(`/api/auctions/${auction.id}/bid`, { cookie: late.cookie })).status).toBe(200)
  await outboxWritten()
  bidders = [early.name, late.name]
})

/** The record's rows as the page shows them: place, bidder and kind. */
const rows = (page: Page) =>
  page
    .getByRole('table', { name: 'Ставки по порядку' })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())),
    )

describe('the record page', () => {
  for (const javaScriptEnabled of [false, true]) {
    test(`reached from the auction page on a phone, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const page = await browser.newPage({ ...phone, javaScriptEnabled, consented: true })
      await open(page, `/auction/${auction.slug}`)
      // The record's head stands under the bid history; with JavaScript it follows each bid.
      const apiHead = async () =>
        (await call(`/api/auctions/${auction.id}/audit`, { method: 'GET' })).json.head
      const shownHead = page.locator('[data-record-head]').last()
      await expect.poll(() => shownHead.textContent()).toBe(await apiHead())
      if (javaScriptEnabled) {
        const more = await newAccount()
        await setBalance(more.id, 1)
        const bid = await call(`/api/auctions/${auction.id}/bid`, { cookie: more.cookie })
        expect(bid.status).toBe(200)
        bidders.push(more.name)
        await page.locator(`[data-record-head="${bidders.length}"]`).waitFor()
        await outboxWritten()
        expect(await shownHead.textContent()).toBe(await apiHead())
      }
      await page.getByRole('link', { name: 'Запись торгов' }).click()
      await page.waitForURL((url) => url.pathname.endsWith('/audit'))
      await page.getByRole('heading', { level: 1, name: 'Запись торгов' }).waitFor()
      const shown = await rows(page)
      expect(shown.map((cells) => [cells[0], cells[3], cells[4]])).toEqual(
        bidders.map((name, i) => [String(i + 1), name, i === 0 ? 'Предварительная' : 'Ставка']),
      )
      const last = shown.at(-1)![5]!
      expect(last).toMatch(/^[0-9a-f]{64}$/)
      // The head is the last bid's hash; nothing is wider than the phone.
      await page.getByText(last, { exact: true }).first().waitFor()
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBeLessThanOrEqual(0)
      if (!javaScriptEnabled) await screenshot(page, 'record-page-phone-nojs')
    })
  }

  test("the CSV holds the same record; an unknown auction is a 404 in the visitor's language", async () => {
    const csv = await fetch(`${base()}/auction/${auction.slug}/audit.csv`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const lines = (await csv.text()).trim().split('\r\n')
    expect(lines[0]).toBe('seq,at,amount,bidder,kind,hash')
    const { json } = await call(`/api/auctions/${auction.id}/audit`, { method: 'GET' })
    const bids = json.bids as Array<{ seq: number; bidder: string; kind: string; hash: string }>
    expect(lines.slice(1)).toEqual(
      bids.map(
        (b, i) =>
          `${b.seq},${(json.bids as Array<{ at: string }>)[i]!.at},0.0${b.seq},"${b.bidder}",${b.kind},${b.hash}`,
      ),
    )
    const missing = await fetch(`${base()}/auction/no-such-auction/audit`)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('Аукцион не найден')
    const missingCsv = await fetch(`${base()}/auction/no-such-auction/audit.csv`, {
      headers: { 'Accept-Language': 'en' },
    })
    expect(missingCsv.status).toBe(404)
    expect(await missingCsv.text()).toBe('Auction not found')
  })
})
