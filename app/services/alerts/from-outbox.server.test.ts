import { afterAll, expect, test } from 'vitest'
import { createAuction, createUser, liveAuction, testEngine } from '../../../engine/test-support.ts'
import { watchersOf } from '~/models/watch.server.ts'
import type { AlertRequest } from '~/services/alerts/enqueue.server.ts'
import { alertsFromEntries } from '~/services/alerts/from-outbox.server.ts'
import { markAbsent, markPresent } from '~/services/alerts/presence.server.ts'
import { dueAlerts } from '~/services/alerts/scheduler.server.ts'

// The alerts the engine's events make once the outbox wrote them (docs/rules.md#alerts), with
// the real engine, Redis and Postgres.

const { engine, outbox, prisma } = testEngine()
const presence = { redis: engine.redis, prefix: engine.keys.base.slice(1, -2) }
const produced: AlertRequest[] = []
outbox.onWritten(async (entries) => produced.push(...(await alertsFromEntries(entries, presence))))
afterAll(() => outbox.stop())

/** A bid, once the engine's one-second limit per person lets it through. */
async function bid(auctionId: string, userId: string) {
  for (;;) {
    const result = await engine.bid(auctionId, userId)
    if (result.ok) return
    if (result.reason !== 'too_fast') throw new Error(result.reason)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function written() {
  await outbox.drain()
  return produced.splice(0).map(({ userId, kind, key }) => ({ userId, kind, key }))
}

test('a start reaches the watchers, an outbid the watching previous leader unless their page is open, a win the winner', async () => {
  const [watcher, stranger] = [await createUser(prisma), await createUser(prisma)]
  const lot = await createAuction(prisma)
  await prisma.watch.create({ data: { userId: watcher.id, auctionId: lot.id } })
  await engine.loadAuction(lot.id)
  await engine.sweep()
  expect(await written()).toEqual([
    { userId: watcher.id, kind: 'started', key: `started:${lot.id}` },
  ])

  await bid(lot.id, watcher.id)
  await bid(lot.id, stranger.id)
  // The stranger does not watch: outbidding them tells them nothing.
  await bid(lot.id, watcher.id)
  const outbid = await written()
  expect(outbid).toHaveLength(1)
  expect(outbid[0]).toMatchObject({ userId: watcher.id, kind: 'outbid' })
  expect(outbid[0]!.key).toMatch(new RegExp(`^outbid:${lot.id}:\\d+$`))

  // The watcher has the auction's page open: no outbid.
  const visit = { socketId: 's1', userId: watcher.id, auctionId: lot.id }
  await markPresent(presence.redis, presence.prefix, [visit])
  await bid(lot.id, stranger.id)
  expect(await written()).toEqual([])
  await markAbsent(presence.redis, presence.prefix, visit)
  await bid(lot.id, watcher.id)
  await bid(lot.id, stranger.id)
  expect((await written()).map((a) => a.kind)).toEqual(['outbid'])

  await bid(lot.id, watcher.id)
  expect((await engine.endAuction(lot.id)).ok).toBe(true)
  expect(await written()).toEqual([{ userId: watcher.id, kind: 'won', key: `won:${lot.id}` }])
})

test('a prebid counts as watching; outbidding someone who does not watch tells nobody', async () => {
  const lot = await liveAuction(engine)
  const [one, two] = [await createUser(prisma), await createUser(prisma)]
  await prisma.prebid.create({ data: { userId: one.id, auctionId: lot.id } })
  expect(await watchersOf(lot.id)).toEqual([one.id])
  await written()
  await bid(lot.id, two.id)
  await bid(lot.id, one.id)
  expect(await written()).toEqual([])
  await bid(lot.id, two.id)
  expect((await written()).map((a) => [a.userId, a.kind])).toEqual([[one.id, 'outbid']])
})

test('no outbid while the person’s own auto-bidder still holds bids there; one once it holds none', async () => {
  const lot = await liveAuction(engine)
  const [bidder, rival] = [await createUser(prisma), await createUser(prisma)]
  await prisma.watch.create({ data: { userId: bidder.id, auctionId: lot.id } })
  await bid(lot.id, bidder.id)
  expect((await engine.setAutoBid(lot.id, bidder.id, 3)).ok).toBe(true)
  await written()
  // The auto-bidder bids back for them when the timer runs low: nothing to tell yet.
  await bid(lot.id, rival.id)
  expect(await written()).toEqual([])
  // Stopped, its bids given back: the next outbid is told.
  expect((await engine.stopAutoBid(lot.id, bidder.id)).ok).toBe(true)
  await bid(lot.id, bidder.id)
  await bid(lot.id, rival.id)
  expect((await written()).map((a) => [a.userId, a.kind])).toEqual([[bidder.id, 'outbid']])
})

test('the clock: starts in 5 minutes for watchers, order reminders at 24 h and 2 h', async () => {
  const now = new Date()
  const person = await createUser(prisma)
  const soon = await createAuction(prisma, { startTime: new Date(now.getTime() + 4 * 60_000) })
  const later = await createAuction(prisma, { startTime: new Date(now.getTime() + 30 * 60_000) })
  for (const lot of [soon, later])
    await prisma.watch.create({ data: { userId: person.id, auctionId: lot.id } })
  const order = (hours: number, auctionId: string) =>
    prisma.order.create({
      data: {
        auctionId,
        userId: person.id,
        kind: 'win',
        rank: 1,
        price: 100,
        expiresAt: new Date(now.getTime() + hours * 3600_000),
      },
    })
  const [day, hour, far] = [
    await order(23, soon.id),
    await order(1.5, later.id),
    await order(40, (await createAuction(prisma)).id),
  ]
  const due = (await dueAlerts(now)).filter((alert) => alert.userId === person.id)
  expect(due.map((alert) => alert.key).sort()).toEqual(
    [`startsSoon:${soon.id}`, `orderLapses24h:${day.id}`, `orderLapses2h:${hour.id}`].sort(),
  )
  expect(due.map((alert) => alert.key)).not.toContain(`orderLapses24h:${far.id}`)
})

test('a won item passed to a runner-up tells them while the offer is open; a winner’s order does not', async () => {
  const now = new Date()
  const [winner, runnerUp] = [await createUser(prisma), await createUser(prisma)]
  const lot = await createAuction(prisma)
  const order = (userId: string, rank: number, status: 'awaiting_payment' | 'expired') =>
    prisma.order.create({
      data: {
        auctionId: lot.id,
        userId,
        kind: 'win',
        rank,
        price: 100,
        status,
        expiresAt: new Date(now.getTime() + (status === 'expired' ? -1 : 47) * 3600_000),
      },
    })
  await order(winner.id, 1, 'expired')
  const offer = await order(runnerUp.id, 2, 'awaiting_payment')
  const due = (await dueAlerts(now)).filter((alert) => alert.auctionId === lot.id)
  expect(due).toEqual([
    {
      userId: runnerUp.id,
      kind: 'offered',
      key: `offered:${offer.id}`,
      auctionId: lot.id,
      orderId: offer.id,
      expiresAt: offer.expiresAt.getTime(),
    },
  ])
  // Paid (or lapsed) meanwhile: nothing more to tell.
  await prisma.order.update({ where: { id: offer.id }, data: { status: 'paid' } })
  expect((await dueAlerts(now)).filter((alert) => alert.auctionId === lot.id)).toEqual([])
})
