import { describe, expect, test } from 'vitest'
import { MIN_BID_INTERVAL_MS } from '../../engine/index.ts'
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
          // As the page's fetcher sends it (app/components/auction/bid-panel.tsx).
          body: new URLSearchParams({ intent, auctionId, via: 'fetcher' }).toString(),
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

type Sent = Awaited<ReturnType<typeof send>>
type Person = Awaited<ReturnType<typeof newAccount>>

/**
 * One person bids, another, then the first again: that third bid is too fast when it reaches the
 * engine within a second of the first's own. A machine too busy to send the three within that
 * second says nothing about the rule, so they are sent again by new people until it is not.
 */
async function bidAgainAtOnce(
  way: Way,
  auctionId: string,
  tooFast: (answer: Sent) => boolean,
  people: Array<Person>,
) {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    // Made before the auction started where they can be: it ends 10 s after its last bid.
    const [first, second] =
      attempt === 0 ? (people as [Person, Person]) : [await newAccount(), await newAccount()]
    const started = Date.now()
    const placed = await send(way, 'bid', auctionId, first.cookie)
    const followed = await send(way, 'bid', auctionId, second.cookie)
    const again = await send(way, 'bid', auctionId, first.cookie)
    if (tooFast(again) || Date.now() - started < MIN_BID_INTERVAL_MS)
      return { first, second, placed, followed, again }
  }
  throw new Error('three bids never reached the engine within a second')
}

describe('one decision for every way a bid is sent', () => {
  test('accepted, leading, too fast and unknown: same statuses from the API and the fetcher', async () => {
    const people = [await newAccount(), await newAccount(), await newAccount(), await newAccount()]
    const auction = await live(`Одно решение ${Date.now()}`)
    for (const [index, way] of (['api', 'fetcher'] as const).entries()) {
      // The first again within the second: too fast, with when to try again.
      const {
        first,
        second,
        placed,
        followed,
        again: tooFast,
      } = await bidAgainAtOnce(
        way,
        auction.id,
        (answer) => answer.status === 429,
        people.slice(index * 2, index * 2 + 2),
      )
      expect(placed.status, way).toBe(200)
      expect(followed.status, way).toBe(200)
      expect(await balanceOf(first.cookie)).toBe(4)
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
    const people = [await newAccount(), await newAccount()]
    const auction = await live(`Форма ${Date.now()}`)
    const back = '/auctions?page=1'

    expect(await send('form', 'bid', auction.id, '')).toEqual({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent(back)}`,
      flash: null,
    })
    const {
      first,
      placed,
      again: tooFast,
    } = await bidAgainAtOnce('form', auction.id, (answer) => answer.flash?.type === 'error', people)
    expect(placed).toMatchObject({
      status: 302,
      location: back,
      flash: { type: 'success', description: 'Ставка принята' },
    })
    expect(await balanceOf(first.cookie)).toBe(4)
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
      body: 'intent=steal&auctionId=x&via=fetcher',
    })
    expect(fetcher.status).toBe(400)
    // A client that is neither the page's fetcher nor its plain form gets JSON.
    const outside = await fetch(`${base()}/resources/bid`, {
      method: 'POST',
      headers: {
        Origin: base(),
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: person.cookie,
      },
      body: 'intent=steal&auctionId=x',
    })
    expect(outside.status).toBe(400)
    expect(outside.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await outside.json()).toMatchObject({ ok: false, price: null, bidBalance: null })
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
