import { describe, expect, test } from 'vitest'
import { base, call, newAccount } from './api.ts'
import { createAuction, untilLive } from './auctions.ts'
import { flashOf, postPage } from './pages.ts'

// Every bid and prebid button posts to one action (app/routes/auction/resources.bid.ts): a page without
// JavaScript with the page to come back to (`redirectTo`), a page with JavaScript through a
// fetcher (Remix's data request, `/resources/bid.data`). The JSON API answers from the same
// decision: the same refusals, the same statuses, `Retry-After` when the bidder is too fast.

const live = async (title: string) => {
  const auction = await createAuction({ title, startsInMs: 200 })
  await untilLive(auction.id)
  return auction
}

type Way = 'api' | 'form' | 'fetcher'

/** One bid or prebid sent the way a client sends it; its status, Retry-After and outcome. */
async function send(
  way: Way,
  intent: 'bid' | 'prebid',
  auctionId: string,
  cookie: string,
  language: 'ru' | 'en' = 'ru',
) {
  if (way === 'form') {
    const answer = await postPage(
      '/resources/bid',
      { form: { intent, auctionId, redirectTo: '/auctions?page=1' } },
      { cookie, language },
    )
    return { status: answer.status, location: answer.location, flash: flashOf(answer.cookies) }
  }
  const response =
    way === 'api'
      ? await fetch(`${base()}/api/auctions/${auctionId}/${intent}`, {
          method: 'POST',
          headers: { 'Accept-Language': language, ...(cookie ? { Cookie: cookie } : {}) },
        })
      : await fetch(`${base()}/resources/bid.data`, {
          method: 'POST',
          headers: {
            Origin: base(),
            'Content-Type': 'application/x-www-form-urlencoded',
            'Accept-Language': language,
            ...(cookie ? { Cookie: cookie } : {}),
          },
          body: new URLSearchParams({ intent, auctionId }).toString(),
        })
  const text = await response.text()
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    cacheControl: response.headers.get('cache-control'),
    text,
  }
}

const balanceOf = async (cookie: string) =>
  (
    (await call('/api/users/profile', { method: 'GET', cookie })).json.user as {
      bidBalance: number
    }
  ).bidBalance

describe('one decision for every way a bid is sent', () => {
  test('accepted, leading, too fast and unknown: same statuses from the API and the fetcher', async () => {
    const auction = await live(`Одно решение ${Date.now()}`)
    for (const way of ['api', 'fetcher'] as const) {
      const [first, second] = [await newAccount(), await newAccount()]
      const placed = await send(way, 'bid', auction.id, first.cookie)
      expect(placed.status, way).toBe(200)
      expect(await balanceOf(first.cookie)).toBe(4)
      expect((await send(way, 'bid', auction.id, second.cookie)).status, way).toBe(200)
      // The first again within the second: too fast, with when to try again.
      const tooFast = await send(way, 'bid', auction.id, first.cookie)
      expect({ status: tooFast.status, retryAfter: tooFast.retryAfter }, way).toEqual({
        status: 429,
        retryAfter: '1',
      })
      expect(tooFast.text, way).toContain('Слишком быстро')
      // The second still leads (once a second has passed since its own bid, which it may not
      // bid within either).
      let leading = await send(way, 'bid', auction.id, second.cookie)
      await expect
        .poll(async () => (leading = await send(way, 'bid', auction.id, second.cookie)).status, {
          interval: 100,
          timeout: 5_000,
        })
        .not.toBe(429)
      expect(leading.status, way).toBe(409)
      expect(leading.text, way).toContain('Ваша ставка уже последняя')
      expect(await balanceOf(second.cookie)).toBe(4)
      // Nobody logged in, and an auction nobody has.
      expect((await send(way, 'bid', auction.id, '')).status, way).toBe(401)
      expect((await send(way, 'bid', 'no-such-auction', first.cookie)).status, way).toBe(404)
      // A prebid on a live auction.
      expect((await send(way, 'prebid', auction.id, first.cookie)).status, way).toBe(409)
    }
  })

  test('without JavaScript: back to the page with the outcome as a toast, in its language', async () => {
    const auction = await live(`Форма ${Date.now()}`)
    const [first, second] = [await newAccount(), await newAccount()]
    const back = '/auctions?page=1'

    expect(await send('form', 'bid', auction.id, '')).toEqual({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent(back)}`,
      flash: null,
    })
    const placed = await send('form', 'bid', auction.id, first.cookie)
    expect(placed).toMatchObject({
      status: 302,
      location: back,
      flash: { type: 'success', description: 'Ставка принята' },
    })
    expect(await balanceOf(first.cookie)).toBe(4)
    await send('form', 'bid', auction.id, second.cookie)
    const tooFast = await send('form', 'bid', auction.id, first.cookie)
    expect(tooFast.flash).toMatchObject({ type: 'error', title: 'Не удалось сделать ставку' })
    expect(tooFast.flash?.description).toContain('Слишком быстро')
    const english = await send('form', 'bid', 'no-such-auction', first.cookie, 'en')
    expect(english.flash?.description).toBe('Auction not found')
  })

  test('a redirect off the site is refused: back to the home page instead', async () => {
    const person = await newAccount()
    for (const redirectTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const answer = await postPage(
        '/resources/bid',
        { form: { intent: 'bid', auctionId: 'no-such-auction', redirectTo } },
        { cookie: person.cookie },
      )
      expect({ status: answer.status, location: answer.location }, redirectTo).toEqual({
        status: 302,
        location: '/',
      })
    }
  })

  test('bad input: an unknown intent is a 400, never an error page', async () => {
    const person = await newAccount()
    const fetcher = await fetch(`${base()}/resources/bid.data`, {
      method: 'POST',
      headers: {
        Origin: base(),
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: person.cookie,
      },
      body: 'intent=steal&auctionId=x',
    })
    expect(fetcher.status).toBe(400)
    const form = await postPage(
      '/resources/bid',
      { form: { intent: 'steal', redirectTo: '/' } },
      { cookie: person.cookie },
    )
    expect(form.status).toBe(302)
    expect(flashOf(form.cookies)?.type).toBe('error')
    const notForm = await postPage(
      '/resources/bid',
      { raw: '{"intent":"bid"}', type: 'application/json' },
      { cookie: person.cookie },
    )
    expect(notForm.status).toBe(400)
    const get = await fetch(`${base()}/resources/bid`)
    expect(get.status).toBe(405)
  })
})
