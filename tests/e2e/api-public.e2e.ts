import pg from 'pg'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { call, expectEachGet, newAccount, sessionOf, unique } from './api.ts'
import { createAuction, setBalance } from './auctions.ts'

// The public calls of docs/rules.md#calls against the production server: shapes, money in som,
// and every engine rejection as its status and message (#refusals).

let finished: { id: string; slug: string }

beforeAll(async () => {
  const client = new pg.Client({ connectionString: inject('e2eDatabaseUrl') })
  await client.connect()
  const { rows } = await client.query<{ id: string; slug: string }>(
    `SELECT a.id, a.slug FROM "Auction" a WHERE a.status = 'finished'
       AND EXISTS (SELECT 1 FROM "Bid" b WHERE b."auctionId" = a.id)
     ORDER BY a."endTime" DESC LIMIT 1`,
  )
  await client.end()
  finished = rows[0]!
})

async function liveAuction(title: string) {
  const auction = await createAuction({ title, startsInMs: 300 })
  await expect
    .poll(
      async () =>
        ((await call(`/api/auctions/slug/${encodeURIComponent(auction.slug)}`, { method: 'GET' }))
          .json.status as string) ?? null,
      { timeout: 10_000 },
    )
    .toBe('live')
  return auction
}

describe('public API', () => {
  test('GET /api/settings: the public settings, revalidated every time', async () => {
    const response = await fetch(`${inject('baseUrl')}/api/settings`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, no-cache')
    expect(response.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/)
    expect(Object.keys(await response.json()).sort()).toEqual([
      'currency',
      'currencySymbol',
      'footerDescription',
      'headerTagline',
      'language',
      'siteName',
    ])
  })

  test('GET /api/auctions: three groups in som, live ones with their time left', async () => {
    await liveAuction(`Группы ${unique()}`)
    const { json, status } = await call('/api/auctions', { method: 'GET' })
    expect(status).toBe(200)
    const groups = json as unknown as Record<
      'live' | 'upcoming' | 'finished',
      Array<Record<string, unknown>>
    >
    expect(groups.live.length).toBeGreaterThan(0)
    expect(groups.upcoming.length).toBeGreaterThan(0)
    expect(groups.finished.length).toBeGreaterThan(0)
    for (const auction of groups.live) {
      expect(auction.status).toBe('live')
      expect(auction.timeLeft).toBeGreaterThanOrEqual(0)
      expect(auction.timeLeft).toBeLessThanOrEqual(10_000)
      // 0.01 steps in som, never minor units.
      const price = auction.currentPrice as number
      expect(Number(price.toFixed(2))).toBe(price)
      expect(auction.nextBidPrice).toBeCloseTo((auction.currentPrice as number) + 0.01, 5)
    }
    for (const auction of groups.finished) expect(auction.status).toBe('finished')
    const starts = groups.upcoming.map((a) => Date.parse(a.startTime as string))
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
  })

  test('one auction by slug, its bids and stats; unknown ones are 404 with a message', async () => {
    const bySlug = await call(`/api/auctions/slug/${encodeURIComponent(finished.slug)}`, {
      method: 'GET',
    })
    expect(bySlug.status).toBe(200)
    expect(bySlug.json).toMatchObject({ id: finished.id, slug: finished.slug, status: 'finished' })
    const bids = await call(`/api/auctions/${finished.id}/bids`, { method: 'GET' })
    expect(bids.status).toBe(200)
    const list = bids.json as unknown as Array<Record<string, unknown>>
    expect(list.length).toBeGreaterThan(0)
    expect(Object.keys(list[0]!).sort()).toEqual(
      ['amount', 'botName', 'createdAt', 'id', 'isBot', 'isPrebid', 'user'].sort(),
    )
    expect(bySlug.json.finalPrice).toBe(list[0]!.amount)
    const stats = await call(`/api/auctions/${finished.id}/stats`, { method: 'GET' })
    expect(stats.status).toBe(200)
    expect(stats.json.totalBids).toBe(
      (stats.json.botBids as number) + (stats.json.userBids as number),
    )
    expect(stats.json.uniqueParticipants).toBeGreaterThan(0)

    await expectEachGet(
      ['/api/auctions/slug/no-such-auction', '/api/auctions/nope/bids', '/api/auctions/nope/stats'],
      404,
      { error: 'Аукцион не найден' },
    )
  })

  test('an address under /api/ that no call has: 404 with a message, never the HTML page', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['GET', '/api/'],
      ['GET', '/api/auctions/some-id/nothing/here'],
      ['POST', '/api/nope'],
      ['DELETE', '/api/admin/nothing'],
    ] as const) {
      const answer = await call(path, { method, lang: 'en' })
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.json, `${method} ${path}`).toEqual({ error: 'Not found' })
    }
  })

  test('GET /api/timers: whole seconds left for every live auction', async () => {
    const auction = await liveAuction(`Таймер ${unique()}`)
    const { json, status } = await call('/api/timers', { method: 'GET' })
    expect(status).toBe(200)
    expect(json[auction.id]).toBeGreaterThanOrEqual(9)
    expect(json[auction.id]).toBeLessThanOrEqual(10)
    for (const seconds of Object.values(json)) expect(Number.isInteger(seconds)).toBe(true)
  })

  test('POST bid: success, then every rejection with its status and message', async () => {
    const auction = await liveAuction(`Ставки ${unique()}`)
    const a = await newAccount()
    const b = await newAccount()
    const bid = (cookie?: string, id = auction.id, lang = 'ru') =>
      call(`/api/auctions/${id}/bid`, { cookie, lang })

    expect(await bid()).toMatchObject({
      status: 401,
      json: { error: 'Войдите, чтобы делать ставки' },
    })
    expect(await bid(a.cookie)).toMatchObject({
      status: 200,
      json: { ok: true, message: 'Ставка принята', currentPrice: 0.01, bidBalance: 4 },
    })
    expect(await bid(a.cookie)).toMatchObject({
      status: 409,
      json: { error: 'Ваша ставка уже последняя — дождитесь чужой ставки' },
    })
    expect((await bid(b.cookie)).json).toMatchObject({ currentPrice: 0.02, bidBalance: 4 })
    // A's next bid within a second of the last one is too fast.
    expect(await bid(a.cookie)).toMatchObject({
      status: 429,
      json: { error: 'Слишком быстро: не больше одной ставки в секунду' },
    })
    await setBalance(b.id, 0)
    // Once a second has passed since A's last bid, A's next one is taken (refused ones cost
    // nothing).
    await expect
      .poll(async () => (await bid(a.cookie)).status, { interval: 100, timeout: 5_000 })
      .toBe(200)
    // B's own last bid may still be within its second (too fast comes first): once it is not,
    // the refusal is the empty balance.
    let broke = await bid(b.cookie)
    await expect
      .poll(async () => (broke = await bid(b.cookie)).status, { interval: 100, timeout: 5_000 })
      .not.toBe(429)
    expect(broke).toMatchObject({
      status: 402,
      json: { error: 'Недостаточно бидов — пополните баланс ставок' },
    })
    expect(await bid(a.cookie, 'no-such-auction')).toMatchObject({
      status: 404,
      json: { error: 'Аукцион не найден' },
    })
    expect(await bid(a.cookie, finished.id)).toMatchObject({
      status: 409,
      json: { error: 'Аукцион уже завершён' },
    })
    const upcoming = await createAuction({ title: `Скоро ${unique()}`, startsInMs: 3_600_000 })
    expect(await bid(a.cookie, upcoming.id)).toMatchObject({
      status: 409,
      json: { error: 'Аукцион ещё не начался' },
    })
    expect((await bid(a.cookie, upcoming.id, 'en')).json.error).toBe(
      "The auction hasn't started yet",
    )
    expect((await call(`/api/auctions/${auction.id}/bid`, { method: 'GET' })).status).toBe(405)
    // Nothing above was charged twice: 5 - 2 bids.
    const me = await call('/api/auth/me', { method: 'GET', cookie: a.cookie })
    expect((me.json.user as { bidBalance: number }).bidBalance).toBe(3)
  }, 30_000)

  test('POST bid after a logout or after the account is deleted: 401 at once', async () => {
    const auction = await liveAuction(`Выход ${unique()}`)
    const [a, b] = [await newAccount(), await newAccount()]
    const bid = (cookie: string) => call(`/api/auctions/${auction.id}/bid`, { cookie })
    // Each has just bid, so who they are is fresh in every cache the bid call reads.
    expect((await bid(a.cookie)).status).toBe(200)
    expect((await bid(b.cookie)).status).toBe(200)

    expect((await call('/api/auth/logout', { cookie: a.cookie })).status).toBe(200)
    expect(await bid(a.cookie)).toMatchObject({
      status: 401,
      json: { error: 'Войдите, чтобы делать ставки' },
    })

    const login = await call('/api/auth/login', {
      body: { username: 'admin', password: 'admin123' },
    })
    const admin = sessionOf(login.cookie)
    const deleted = await call(`/api/admin/users/${b.id}`, { method: 'DELETE', cookie: admin })
    expect(deleted.status).toBe(200)
    expect(await bid(b.cookie)).toMatchObject({
      status: 401,
      json: { error: 'Войдите, чтобы делать ставки' },
    })
  })

  test('POST prebid: once per upcoming auction, never on a live one', async () => {
    const upcoming = await createAuction({ title: `Предзаказ ${unique()}`, startsInMs: 3_600_000 })
    const live = await liveAuction(`Идёт ${unique()}`)
    const a = await newAccount()
    const prebid = (cookie?: string, id = upcoming.id) =>
      call(`/api/auctions/${id}/prebid`, { cookie })
    expect((await prebid()).status).toBe(401)
    expect(await prebid(a.cookie)).toMatchObject({
      status: 200,
      json: { ok: true, bidBalance: 4 },
    })
    expect(await prebid(a.cookie)).toMatchObject({
      status: 409,
      json: { error: 'Вы уже сделали предварительную ставку на этот аукцион' },
    })
    expect(await prebid(a.cookie, live.id)).toMatchObject({
      status: 409,
      json: { error: 'Предварительные ставки принимаются только до начала аукциона' },
    })
    await expect
      .poll(
        async () =>
          (await call('/api/prebids/user', { method: 'GET', cookie: a.cookie })).json as unknown,
        { timeout: 5000 },
      )
      .toMatchObject([{ auction: { id: upcoming.id, status: 'upcoming' } }])
  })
})
