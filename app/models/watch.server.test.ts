import { expect, test } from 'vitest'
import { createAuction, createUser } from '../../engine/test-support.ts'
import { appEngine } from '../../tests/support/accounts.ts'
import { cardMarks } from '~/models/viewer-marks.server.ts'
import {
  FINISHED_KEPT_MS,
  getWatchlist,
  setWatching,
  watchedAmong,
  watchedAuctions,
  watchersOf,
  WATCHLIST_PAGE,
} from '~/models/watch.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The watchlist's rule on the real Postgres (docs/rules.md#watchlist): a prebid counts as
// watching until the person stops watching that auction; finished auctions stay a day; 20 a page.

const engine = appEngine()
const prisma = getPrisma()
const ids = async (userId: string, page = 1) =>
  (await getWatchlist(engine, userId, page)).auctions.map((auction) => auction.id)

const upcoming = (hours: number) =>
  createAuction(prisma, { startTime: new Date(Date.now() + hours * 3600_000) })

test('an auction one prebid on can be unwatched, and stays so everywhere until watched again', async () => {
  const person = await createUser(prisma)
  const lot = await upcoming(1)
  await prisma.prebid.create({ data: { userId: person.id, auctionId: lot.id } })
  expect(await ids(person.id)).toEqual([lot.id])

  expect(await setWatching(engine, person.id, lot.id, false)).toBe(false)
  // Read again, as a reload does: the prebid does not bring it back.
  expect(await ids(person.id)).toEqual([])
  expect(await watchedAmong(person.id, [lot.id])).toEqual([])
  expect((await cardMarks(person.id, { prebids: [lot.id], watched: [lot.id] })).prebidIds).toEqual([
    lot.id,
  ])
  expect(await watchersOf(lot.id)).not.toContain(person.id)
  expect(await watchedAuctions(person.id)).toEqual([])

  expect(await setWatching(engine, person.id, lot.id, true)).toBe(true)
  expect(await ids(person.id)).toEqual([lot.id])
  expect(await watchedAmong(person.id, [lot.id])).toEqual([lot.id])
  expect(await watchersOf(lot.id)).toContain(person.id)
  expect(await watchedAuctions(person.id)).toEqual([
    { id: lot.id, title: lot.title, slug: lot.slug, status: 'upcoming' },
  ])
})

test('a finished auction leaves the list a day after its end', async () => {
  const person = await createUser(prisma)
  const finished = async (endedMsAgo: number) => {
    const lot = await upcoming(-48)
    await prisma.watch.create({ data: { userId: person.id, auctionId: lot.id } })
    return prisma.auction.update({
      where: { id: lot.id },
      data: { status: 'finished', endTime: new Date(Date.now() - endedMsAgo) },
    })
  }
  const yesterday = await finished(FINISHED_KEPT_MS - 60_000)
  await finished(FINISHED_KEPT_MS + 60_000)
  expect(await ids(person.id)).toEqual([yesterday.id])
})

test('the list pages beyond 20: live, then upcoming by start; a page past the end is the last', async () => {
  const person = await createUser(prisma)
  const lots = []
  for (let i = 0; i < WATCHLIST_PAGE + 5; i++) lots.push(await upcoming(1 + i))
  for (const lot of [...lots].reverse()) await setWatching(engine, person.id, lot.id, true)
  const first = await getWatchlist(engine, person.id, 1)
  expect(first).toMatchObject({ page: 1, totalPages: 2, total: WATCHLIST_PAGE + 5 })
  expect(first.auctions.map((a) => a.id)).toEqual(lots.slice(0, WATCHLIST_PAGE).map((a) => a.id))
  expect(await ids(person.id, 2)).toEqual(lots.slice(WATCHLIST_PAGE).map((a) => a.id))
  expect((await getWatchlist(engine, person.id, 9)).page).toBe(2)
  // The bot's /watchlist shows the first 20, soonest first.
  expect((await watchedAuctions(person.id)).map((a) => a.slug)).toEqual(
    lots.slice(0, 20).map((a) => a.slug),
  )
})
