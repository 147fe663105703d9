import { describe, expect, inject, test } from 'vitest'
import { decode } from 'turbo-stream'
import { call, newAccount } from './api.ts'
import { createAuction } from './auctions.ts'
import { flashOf, postPage, type Answer } from './pages.ts'

// The auction page's bid button without JavaScript posts `intent=bid` to the page. The server
// answers that post ahead of the page's route; any other post to the page is handed to the
// route with its body intact. A post with an extra field (`via=form`) always reaches the route,
// so both answers can be compared.

const live = async (title: string) => {
  const auction = await createAuction({ title, startsInMs: 200 })
  await new Promise((resolve) => setTimeout(resolve, 700))
  return auction
}
const bidOn = (slug: string, cookie: string, extra: Record<string, string> = {}, language?: 'en') =>
  postPage(
    `/auction/${slug}`,
    { form: { intent: 'bid', auctionId: 'ignored', ...extra } },
    { cookie, language },
  )
const throughRoute = { via: 'form' }
const shape = (answer: Answer) => {
  const flash = flashOf(answer.cookies)
  return {
    status: answer.status,
    location: answer.location,
    flash: flash && { type: flash.type, title: flash.title, description: flash.description },
  }
}
const balanceOf = async (cookie: string) =>
  (
    (await call('/api/users/profile', { method: 'GET', cookie })).json.user as {
      bidBalance: number
    }
  ).bidBalance

describe('a bid from the auction page without JavaScript', () => {
  test('placed, refused and sent to log in as the page route does', async () => {
    const auction = await live(`Форма ${Date.now()}`)
    const back = `/auction/${encodeURIComponent(auction.slug)}`
    const [first, second] = [await newAccount(), await newAccount()]

    // Nobody logged in: to the login page, back to the auction after.
    const login = { status: 302, location: `/login?redirectTo=${encodeURIComponent(back)}` }
    expect(shape(await bidOn(auction.slug, ''))).toEqual({ ...login, flash: null })
    expect(shape(await bidOn(auction.slug, '', throughRoute))).toEqual({ ...login, flash: null })

    // Accepted: back to the page with a toast; one bid charged.
    const placed = {
      status: 302,
      location: back,
      flash: { type: 'success', title: undefined, description: 'Ставка принята' },
    }
    expect(shape(await bidOn(auction.slug, first.cookie))).toEqual(placed)
    expect(await balanceOf(first.cookie)).toBe(4)
    expect(shape(await bidOn(auction.slug, second.cookie, throughRoute))).toEqual(placed)
    expect(await balanceOf(second.cookie)).toBe(4)

    // Refused: the reason under the refusal's title, nothing charged.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const leading = {
      status: 302,
      location: back,
      flash: {
        type: 'error',
        title: 'Не удалось сделать ставку',
        description: 'Ваша ставка уже последняя — дождитесь чужой ставки',
      },
    }
    expect(shape(await bidOn(auction.slug, second.cookie))).toEqual(leading)
    expect(shape(await bidOn(auction.slug, second.cookie, throughRoute))).toEqual(leading)
    expect(await balanceOf(second.cookie)).toBe(4)

    // In the visitor's language.
    const english = await bidOn(auction.slug, first.cookie, {}, 'en')
    expect(flashOf(english.cookies)?.description).toBe('Bid accepted')
  })

  test('an unknown auction: back with "not found"', async () => {
    const person = await newAccount()
    const notFound = {
      status: 302,
      location: '/auction/no-such-auction-anywhere',
      flash: {
        type: 'error',
        title: 'Не удалось сделать ставку',
        description: 'Аукцион не найден',
      },
    }
    expect(shape(await bidOn('no-such-auction-anywhere', person.cookie))).toEqual(notFound)
    expect(shape(await bidOn('no-such-auction-anywhere', person.cookie, throughRoute))).toEqual(
      notFound,
    )
  })

  test('other posts to the page reach its route with their body', async () => {
    const auction = await live(`Форма другая ${Date.now()}`)
    const person = await newAccount()
    // A prebid on a live auction: the route read the form (a lost body would be "invalid").
    const prebid = await postPage(
      `/auction/${auction.slug}`,
      { form: { intent: 'prebid', auctionId: auction.id } },
      { cookie: person.cookie },
    )
    expect(shape(prebid)).toEqual({
      status: 302,
      location: `/auction/${encodeURIComponent(auction.slug)}`,
      flash: {
        type: 'error',
        title: 'Не удалось разместить предварительную ставку',
        description: 'Предварительные ставки принимаются только до начала аукциона',
      },
    })
    // A fetcher's post gets its JSON answer from the route.
    const fetcher = await postPage(
      `/auction/${auction.slug}`,
      { form: { intent: 'bid', via: 'fetcher' } },
      { cookie: person.cookie },
    )
    expect(fetcher.status).toBe(200)
    expect(await balanceOf(person.cookie)).toBe(4)
    // A NUL in the form is the route's 400, in words.
    const nul = await postPage(`/auction/${auction.slug}`, {
      raw: 'intent=bid&auctionId=%00',
      type: 'application/x-www-form-urlencoded',
    })
    expect(nul.status).toBe(400)
    expect(nul.text.length).toBeGreaterThan(0)
  })

  test('a post from another site is refused before it is read', async () => {
    const auction = await live(`Форма чужая ${Date.now()}`)
    const person = await newAccount()
    const response = await fetch(`${inject('baseUrl')}/auction/${auction.slug}`, {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        Cookie: person.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'intent=bid',
      redirect: 'manual',
    })
    expect(response.status).toBe(403)
    expect(await balanceOf(person.cookie)).toBe(5)
  })
})

// With JavaScript the same buttons post through a fetcher to the page's `.data` address
// (`intent=bid`, `auctionId`, `via=fetcher`), answered ahead of the route as well. A post with
// one more field always reaches the route; both answers must be the same.
describe('a bid from a page with JavaScript', () => {
  /** The action's data as the browser decodes it; an error the route threw stays text. */
  const dataOf = (text: string) =>
    decode(new Response(text).body!).then(
      (decoded) => (decoded.value as { data?: unknown }).data,
      () => text,
    )
  const sendFetcher = async (
    path: string,
    form: Record<string, string>,
    cookie: string,
    language = 'ru',
  ) => {
    const response = await fetch(`${inject('baseUrl')}${path}`, {
      method: 'POST',
      headers: {
        Origin: inject('baseUrl'),
        Cookie: cookie,
        'Accept-Language': language,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    })
    const text = await response.text()
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      remix: response.headers.get('x-remix-response'),
      vary: response.headers.get('vary'),
      text,
      data: await dataOf(text),
    }
  }
  const bid = (path: string, auctionId: string, cookie: string, route = false, language = 'ru') =>
    sendFetcher(
      path,
      { intent: 'bid', auctionId, via: 'fetcher', ...(route ? { route: '1' } : {}) },
      cookie,
      language,
    )
  const both = async (path: string, auctionId: string, cookie: string) => {
    const fast = await bid(path, auctionId, cookie)
    const route = await bid(path, auctionId, cookie, true)
    expect(fast).toEqual(route)
    return fast
  }
  const headersOf = {
    type: 'text/x-script; charset=utf-8',
    remix: 'yes',
    vary: 'Cookie, Accept-Encoding',
  }

  test('placed, refused and asked to log in as the page routes answer, from every page', async () => {
    const auction = await live(`Кнопка ${Date.now()}`)
    const page = `/auction/${auction.slug}.data`
    const [first, second, third] = [await newAccount(), await newAccount(), await newAccount()]

    // Nobody logged in, an unknown auction: refusals, byte for byte the route's.
    const anonymous = await both(page, auction.id, '')
    expect(anonymous).toMatchObject({ status: 401, ...headersOf })
    expect(anonymous.data).toEqual({
      ok: false,
      message: 'Войдите, чтобы делать ставки',
      price: null,
      bidBalance: null,
    })
    const unknown = await both('/auction/no-such-auction-anywhere.data', 'x', first.cookie)
    expect(unknown).toMatchObject({
      status: 404,
      data: { ok: false, message: 'Аукцион не найден' },
    })
    expect((await both('/_root.data?index', 'no-such-auction', first.cookie)).data).toMatchObject({
      ok: false,
      message: 'Аукцион не найден',
    })

    // Accepted: the price and the bidder's new balance. The route's answer for the next bidder
    // differs only in the price.
    const placed = await bid(page, 'ignored', first.cookie)
    const placedByRoute = await bid(page, 'ignored', second.cookie, true)
    expect(placed).toMatchObject({ status: 200, ...headersOf })
    expect(placed.data).toEqual({ ok: true, message: 'Ставка принята', price: 1, bidBalance: 4 })
    expect(placedByRoute.data).toEqual({ ...(placed.data as object), price: 2 })
    expect({ ...placedByRoute, data: null, text: null }).toEqual({
      ...placed,
      data: null,
      text: null,
    })
    expect(await balanceOf(first.cookie)).toBe(4)

    // Refused: the last bidder may not bid again; nothing charged.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const leading = await both(page, 'ignored', second.cookie)
    expect(leading).toMatchObject({
      status: 409,
      data: { ok: false, message: 'Ваша ставка уже последняя — дождитесь чужой ставки' },
    })
    expect(await balanceOf(second.cookie)).toBe(4)

    // From a card on the home page and on /auctions (the form names the auction), in English.
    const home = await bid('/_root.data?index&upcoming=99', auction.id, third.cookie, false, 'en')
    expect(home).toMatchObject({ status: 200, ...headersOf })
    expect(home.data).toEqual({ ok: true, message: 'Bid accepted', price: 3, bidBalance: 4 })
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const list = await bid('/auctions.data?page=1', auction.id, first.cookie)
    expect(list.data).toEqual({ ok: true, message: 'Ставка принята', price: 4, bidBalance: 3 })
    const listByRoute = await bid('/auctions.data', auction.id, second.cookie, true)
    expect(listByRoute.data).toEqual({
      ok: true,
      message: 'Ставка принята',
      price: 5,
      bidBalance: 3,
    })
  })

  test('other posts to these addresses reach their routes with their body', async () => {
    const auction = await live(`Кнопка другая ${Date.now()}`)
    const person = await newAccount()
    // A prebid through a fetcher: the route read the form.
    const prebid = await sendFetcher(
      `/auction/${auction.slug}.data`,
      { intent: 'prebid', auctionId: auction.id, via: 'fetcher' },
      person.cookie,
    )
    expect(prebid).toMatchObject({
      status: 409,
      data: {
        ok: false,
        message: 'Предварительные ставки принимаются только до начала аукциона',
      },
    })
    // The root's own address without `index` has no action: the route's refusal, not a bid.
    const root = await bid('/_root.data', auction.id, person.cookie)
    expect(root.status).toBe(405)
    // A trailing slash is no data request: the auction page's route, for a slug it does not know.
    const slash = await bid(`/auction/${auction.slug}.data/`, auction.id, person.cookie)
    expect(slash.status).toBe(404)
    // A NUL in the form is the route's 400.
    const nul = await sendFetcher(
      `/auction/${auction.slug}.data`,
      { intent: 'bid', auctionId: '\0', via: 'fetcher' },
      person.cookie,
    )
    expect(nul.status).toBe(400)
    expect(await balanceOf(person.cookie)).toBe(5)
  })
})
