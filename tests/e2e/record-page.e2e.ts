import { withoutPageTexts } from './pages.ts'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { base, call, newAccount, unique } from './api.ts'
import {
  createAuction,
  keepLive,
  outboxWritten,
  setBalance,
  startSoon,
  untilLive,
} from './auctions.ts'
import { open, phone, screenshot, setupBrowser } from './browser.ts'

// An auction's record of bids as a page (docs/fair-play.md): reached from the auction page, on a
// phone, with and without JavaScript; its CSV is the same record.

const browser = setupBrowser()

let auction: { id: string; slug: string; title: string }
let early: string
let stopKeeping: () => Promise<void>

beforeAll(async () => {
  auction = await createAuction({ title: `Запись ${unique()}`, startsInMs: 60 * 60 * 1000 })
  const [first, ...keepers] = await Promise.all([newAccount(), newAccount(), newAccount()])
  await Promise.all([first, ...keepers].map((person) => setBalance(person.id, 100)))
  expect((await call(`/api/auctions/${auction.id}/prebid`, { cookie: first.cookie })).status).toBe(
    200,
  )
  early = first.name
  await startSoon(auction.id)
  await untilLive(auction.id)
  // Two people keep it live while the pages are looked at, however slow the machine.
  stopKeeping = keepLive(auction.id, keepers)
  await outboxWritten()
})

afterAll(async () => {
  await stopKeeping?.()
})

/** The record as the API answers it: each bid's place, bidder, kind and hash. */
async function record() {
  await outboxWritten()
  const { json } = await call(`/api/auctions/${auction.id}/audit`, { method: 'GET' })
  return json as {
    head: string
    bids: Array<{
      seq: number
      at: string
      amount: number
      bidder: string
      kind: string
      hash: string
    }>
  }
}

const kindShown: Record<string, string> = { prebid: 'Предварительная', bid: 'Ставка' }

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
      // The head shown is the hash of the bid whose place it names, as the record has it.
      const shownHead = page.locator('[data-record-head]').last()
      const headMatches = async () => {
        const seq = Number(await shownHead.getAttribute('data-record-head'))
        const { bids } = await record()
        return (await shownHead.textContent()) === bids[seq - 1]?.hash
      }
      await expect.poll(headMatches).toBe(true)
      if (javaScriptEnabled) {
        // A bid of someone new: the head under the bid history follows it without a reload.
        const more = await newAccount()
        await setBalance(more.id, 1)
        const bid = await call(`/api/auctions/${auction.id}/bid`, { cookie: more.cookie })
        expect(bid.status).toBe(200)
        const { bids } = await record()
        const placed = bids.find((b) => b.bidder === more.name)!
        await expect
          .poll(async () => Number(await shownHead.getAttribute('data-record-head')))
          .toBeGreaterThanOrEqual(placed.seq)
        await expect.poll(headMatches).toBe(true)
      }
      await page.getByRole('link', { name: 'Запись торгов' }).click()
      await page.waitForURL((url) => url.pathname.endsWith('/audit'))
      await page.getByRole('heading', { level: 1, name: 'Запись торгов' }).waitFor()
      const shown = await rows(page)
      const { bids } = await record()
      // The page read the record before the keepers' newest bids, if any.
      expect(shown.map((cells) => [cells[0], cells[3], cells[4]])).toEqual(
        bids.slice(0, shown.length).map((b) => [String(b.seq), b.bidder, kindShown[b.kind]]),
      )
      expect(shown[0]![3]).toBe(early)
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
    const { bids } = await record()
    // Bids the keepers placed after the CSV was read are not in it.
    expect(lines.slice(1)).toEqual(
      bids
        .slice(0, lines.length - 1)
        .map((b) => `${b.seq},${b.at},${b.amount.toFixed(2)},"${b.bidder}",${b.kind},${b.hash}`),
    )
    const missing = await fetch(`${base()}/auction/no-such-auction/audit`)
    expect(missing.status).toBe(404)
    expect(withoutPageTexts(await missing.text())).toContain('Аукцион не найден')
    const missingCsv = await fetch(`${base()}/auction/no-such-auction/audit.csv`, {
      headers: { 'Accept-Language': 'en' },
    })
    expect(missingCsv.status).toBe(404)
    expect(await missingCsv.text()).toBe('Auction not found')
  })
})
