import { expect, test } from 'vitest'
import { call, newAccount, unique } from './api.ts'
import { createAuction, outboxWritten } from './auctions.ts'
import { getPage } from './pages.ts'

// What an auction has cost a person (docs/decisions/083-what-an-auction-has-cost-you.md), in the
// pages' HTML as the server renders it, without JavaScript: on the auction page for a person who
// bid on it, on its row of /bid-history, never for a visitor or a person who has not bid.

const BLOCK = 'aria-labelledby="auction-cost"'
/** A term of the block and its value, as the server renders them. */
const figure = (term: string, value: string | RegExp) =>
  new RegExp(
    `<dt[^>]*>${term}</dt><dd[^>]*>${typeof value === 'string' ? value : value.source}</dd>`,
  )

test("a person's prebid shows on the auction page and /bid-history, and nobody else sees it", async () => {
  const [person, other] = [await newAccount(), await newAccount()]
  // Their 5 free bids are in Postgres.
  await outboxWritten()
  const auction = await createAuction({ title: `Cost ${unique()}`, startsInMs: 3_600_000 })
  const page = `/auction/${auction.slug}`
  expect((await getPage(page, person.cookie, 'en')).text).not.toContain(BLOCK)

  const prebid = await call(`/api/auctions/${auction.id}/prebid`, { cookie: person.cookie })
  expect(prebid.status).toBe(200)
  // At once (the engine holds the prebid) and once the outbox has written it: the same figures.
  for (const written of [false, true]) {
    if (written) await outboxWritten()
    const html = (await getPage(page, person.cookie, 'en')).text
    expect(html).toContain(BLOCK)
    expect(html).toContain('What this auction has cost you')
    expect(html).toMatch(figure('Bids placed', '1'))
    expect(html).toMatch(figure('Of which free', '1'))
    expect(html).toMatch(figure('Value at 15,00 сом a bid', '15,00 сом'))
    // 5 000 som retail less one bid at 15 som.
    expect(html).toMatch(figure('Buy now price after your bids', /4\s985,00 сом/))
  }

  expect((await getPage(page, '', 'en')).text).not.toContain(BLOCK)
  expect((await getPage(page, other.cookie, 'en')).text).not.toContain(BLOCK)

  const history = (await getPage('/bid-history', person.cookie, 'ru')).text
  expect(history).toContain('Во что вам обошёлся этот аукцион')
  expect(history).toMatch(figure('Ставок сделано', '1'))
  expect(history).toMatch(figure('Из них бесплатных', '1'))
  expect((await getPage('/bid-history', other.cookie, 'ru')).text).not.toContain(
    'Во что вам обошёлся этот аукцион',
  )
})
