import { describe, expect, inject, test } from 'vitest'
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
