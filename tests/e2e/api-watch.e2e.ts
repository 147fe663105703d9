import { describe, expect, test } from 'vitest'
import { call, newAccount } from './api.ts'
import { createAuction, createFinishedAuction, outboxWritten } from './auctions.ts'

// The watchlist calls of docs/rules.md#watchlist against the production server: idempotent both
// ways, the error catalogue's statuses, the watched auctions in the shape of GET /api/auctions,
// and an unwatched prebid's auction kept off the list.

const upcoming = (title: string) => createAuction({ title, startsInMs: 60 * 60_000 })
const watch = (id: string, method: 'POST' | 'DELETE', cookie?: string, lang?: string) =>
  call(`/api/auctions/${id}/watch`, { method, cookie, lang })
const watchlist = async (cookie: string) => {
  const answer = await call('/api/users/watchlist', { method: 'GET', cookie })
  expect(answer.status).toBe(200)
  return answer.json.auctions as Array<Record<string, unknown>>
}

describe('watchlist API', () => {
  test('without a session every call is a 401 with a message', async () => {
    const auction = await upcoming(`Без входа ${Date.now()}`)
    for (const method of ['POST', 'DELETE'] as const) {
      const answer = await watch(auction.id, method)
      expect(answer.status, method).toBe(401)
      expect(answer.json, method).toEqual({ error: 'Требуется вход в систему' })
    }
    expect((await call('/api/users/watchlist', { method: 'GET' })).status).toBe(401)
  })

  test('watching and unwatching are idempotent; the list has the shape of GET /api/auctions', async () => {
    const { cookie } = await newAccount()
    const auction = await upcoming(`Слежу ${Date.now()}`)
    for (let i = 0; i < 2; i++) {
      const answer = await watch(auction.id, 'POST', cookie)
      expect({ status: answer.status, json: answer.json }).toEqual({
        status: 200,
        json: { watching: true },
      })
    }
    const listed = await watchlist(cookie)
    expect(listed.map((a) => a.id)).toEqual([auction.id])
    const all = await call('/api/auctions', { method: 'GET' })
    const same = (all.json.upcoming as Array<Record<string, unknown>>).find(
      (a) => a.id === auction.id,
    )
    expect(same).toBeDefined()
    expect(Object.keys(listed[0]!).sort()).toEqual(Object.keys(same!).sort())
    expect(listed[0]).toMatchObject({
      slug: auction.slug,
      title: auction.title,
      status: 'upcoming',
    })

    for (let i = 0; i < 2; i++) {
      const answer = await watch(auction.id, 'DELETE', cookie)
      expect({ status: answer.status, json: answer.json }).toEqual({
        status: 200,
        json: { watching: false },
      })
    }
    expect(await watchlist(cookie)).toEqual([])
  })

  test('a prebid counts as watching', async () => {
    const { cookie } = await newAccount()
    const auction = await upcoming(`Представка ${Date.now()}`)
    expect((await call(`/api/auctions/${auction.id}/prebid`, { cookie })).status).toBe(200)
    // The prebid reaches Postgres through the outbox, a moment after its answer.
    await outboxWritten()
    expect((await watchlist(cookie)).map((a) => a.id)).toEqual([auction.id])
  })

  test('an auction one prebid on can be unwatched and stays so; the list answers a page', async () => {
    const { cookie } = await newAccount()
    const auction = await upcoming(`Не слежу ${Date.now()}`)
    expect((await call(`/api/auctions/${auction.id}/prebid`, { cookie })).status).toBe(200)
    await outboxWritten()
    expect((await watchlist(cookie)).map((a) => a.id)).toEqual([auction.id])
    expect((await watch(auction.id, 'DELETE', cookie)).json).toEqual({ watching: false })
    // Read again, as a reload does: the prebid does not bring it back.
    expect(await watchlist(cookie)).toEqual([])
    const past = await call('/api/users/watchlist?page=3', { method: 'GET', cookie })
    expect(past.json).toEqual({ auctions: [], page: 1, totalPages: 1, total: 0 })
    expect((await watch(auction.id, 'POST', cookie)).json).toEqual({ watching: true })
    const listed = await call('/api/users/watchlist', { method: 'GET', cookie })
    expect(listed.json).toMatchObject({ page: 1, totalPages: 1, total: 1 })
    expect((listed.json.auctions as Array<{ id: string }>).map((a) => a.id)).toEqual([auction.id])
  })

  test('a malformed id is a 400, an unknown auction a 404, a finished one cannot be watched (409)', async () => {
    const { id, cookie } = await newAccount()
    const malformed = await watch('bad!id', 'POST', cookie, 'en')
    expect(malformed).toMatchObject({ status: 400, json: { error: 'Malformed auction id' } })
    const unknown = await watch('nosuchauction0000', 'POST', cookie, 'en')
    expect(unknown).toMatchObject({ status: 404, json: { error: 'Auction not found' } })
    expect((await watch('nosuchauction0000', 'DELETE', cookie)).status).toBe(404)

    const finished = await createFinishedAuction({
      title: 'Завершён',
      winnerId: id,
      finalPrice: 1_00,
    })
    const refused = await watch(finished.id, 'POST', cookie, 'en')
    expect(refused).toMatchObject({
      status: 409,
      json: { error: 'The auction has finished: it cannot be watched' },
    })
    // Removing is always allowed.
    expect((await watch(finished.id, 'DELETE', cookie)).json).toEqual({ watching: false })
  })

  test('other methods are a 405', async () => {
    const { cookie } = await newAccount()
    const auction = await upcoming(`Метод ${Date.now()}`)
    expect(
      (await call(`/api/auctions/${auction.id}/watch`, { method: 'GET', cookie })).status,
    ).toBe(405)
    expect((await call('/api/users/watchlist', { method: 'POST', cookie })).status).toBe(405)
  })
})
