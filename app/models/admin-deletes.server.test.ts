import { expect, test, vi } from 'vitest'
import { createUser, startNow, testEngine, upcomingAuction } from '../../engine/test-support.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { deleteAuction } from '~/models/admin-auctions.server.ts'
import { deleteUserRecords } from '~/models/admin-users.server.ts'
import { getPrisma, type PrismaClient } from '~/utils/db.server.ts'

// Admin deletes against real Redis and Postgres (docs/decisions/029-nothing-paid-disappears.md).

test('an upcoming auction that starts between the check and the removal is refused, and stays live', async () => {
  const { engine, prisma } = testEngine()
  const auction = await upcomingAuction(engine)
  const user = await createUser(prisma, 3)
  expect((await engine.prebid(auction.id, user.id)).ok).toBe(true)
  // The admin's page read it upcoming; it starts right after that read.
  const seen = await engine.getState(auction.id)
  await startNow(engine, auction.id)
  vi.spyOn(engine, 'getState').mockResolvedValueOnce(seen)

  const refused = await deleteAuction(engine, auction.id).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(DomainError)
  expect(refused).toMatchObject({ status: 409, key: 'errors.startedMeanwhile' })
  expect(await engine.getState(auction.id)).toMatchObject({ status: 'live', lastBidder: user.id })
  expect(await prisma.auction.count({ where: { id: auction.id } })).toBe(1)
  // The prebid is a bid in a race that runs: nothing was refunded.
  expect(await engine.getBalance(user.id)).toBe(2)
})

test('a deleted account leaves the engine in the same step; a failed engine step keeps the account', async () => {
  const { engine, prisma } = testEngine()
  const auction = await upcomingAuction(engine)
  const user = await createUser(prisma, 3)
  expect((await engine.prebid(auction.id, user.id)).ok).toBe(true)
  await prisma.prebid.create({ data: { auctionId: auction.id, userId: user.id } })
  await prisma.auction.update({ where: { id: auction.id }, data: { prebidsCount: 1 } })

  const failing = vi.spyOn(engine, 'removeUser').mockRejectedValueOnce(new Error('Redis is down'))
  await expect(deleteUserRecords(engine, user.id)).rejects.toThrow('Redis is down')
  expect(await prisma.user.count({ where: { id: user.id } })).toBe(1)
  expect(await engine.hasPrebid(auction.id, user.id)).toBe(true)
  failing.mockRestore()

  await deleteUserRecords(engine, user.id)
  expect(await prisma.user.count({ where: { id: user.id } })).toBe(0)
  expect(await engine.hasPrebid(auction.id, user.id)).toBe(false)
  expect(await engine.getState(auction.id)).toMatchObject({ prebids: 0 })
  expect(await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })).toMatchObject({
    prebidsCount: 0,
  })
  expect(await engine.getBalance(user.id)).toBeNull()
})

async function ledgerSum(prisma: PrismaClient, userId: string) {
  const rows = await prisma.balanceLedger.findMany({ where: { userId } })
  return rows.reduce((sum, row) => sum + row.amount, 0)
}

test('an upcoming auction whose refunds fail midway is refunded in full by a retry, never twice', async () => {
  const { engine, outbox, prisma } = testEngine()
  const auction = await upcomingAuction(engine)
  const people = [
    await createUser(prisma, 3),
    await createUser(prisma, 3),
    await createUser(prisma, 3),
  ]
  for (const user of people) expect((await engine.prebid(auction.id, user.id)).ok).toBe(true)
  expect((await engine.setAutoBid(auction.id, people[0]!.id, 2)).ok).toBe(true)
  await outbox.drain()

  // The second refund fails (Redis away for a moment): the first one is paid, the rest is not.
  const credit = engine.credit.bind(engine)
  let calls = 0
  const failing = vi.spyOn(engine, 'credit').mockImplementation(async (...args) => {
    if (++calls === 2) throw new Error('Redis is down')
    return credit(...args)
  })
  await expect(deleteAuction(engine, auction.id)).rejects.toThrow('Redis is down')
  failing.mockRestore()
  expect(await prisma.auction.count({ where: { id: auction.id } })).toBe(1)
  // Withdrawn meanwhile: it takes no prebid and does not start.
  expect(await engine.prebid(auction.id, people[0]!.id)).toMatchObject({ ok: false })

  // The retry waits for the outbox to write the refund paid so far, then pays the rest.
  outbox.start()
  try {
    await deleteAuction(engine, auction.id)
  } finally {
    await outbox.stop()
  }
  await outbox.drain()
  expect(await prisma.auction.count({ where: { id: auction.id } })).toBe(0)
  for (const user of people) {
    expect(await engine.getBalance(user.id), 'balance after the delete').toBe(3)
    // createUser starts without a ledger row: every move since is in the ledger, and sums to 0.
    expect(await ledgerSum(prisma, user.id), 'ledger moves').toBe(0)
  }
  const refunds = await prisma.balanceLedger.findMany({
    where: { auctionId: auction.id, amount: { gt: 0 } },
  })
  expect(refunds.map((row) => row.reference.split(':')[0]).sort()).toEqual([
    'autobid-refund',
    'prebid-refund',
    'prebid-refund',
    'prebid-refund',
  ])
})

test('a delete that fails after its refunds pays nothing twice on retry, even after Redis forgot them', async () => {
  const { engine, outbox, prisma } = testEngine()
  const auction = await upcomingAuction(engine)
  const user = await createUser(prisma, 3)
  await engine.prebid(auction.id, user.id)
  await outbox.drain()
  // The app's own client deletes the row; it fails once, then works as before. (The client is a
  // proxy: the spy calls the real method itself and is not restored, which would unset it.)
  const app = getPrisma()
  const transaction = app.$transaction.bind(app) as (...args: unknown[]) => unknown
  const failing = vi
    .spyOn(app, '$transaction')
    .mockImplementation(((...args: unknown[]) => transaction(...args)) as never)
    .mockRejectedValueOnce(new Error('Postgres is down'))
  await expect(deleteAuction(engine, auction.id)).rejects.toThrow('Postgres is down')
  await outbox.drain()
  expect(await engine.getBalance(user.id)).toBe(3)
  // Redis lost its record of the references credited; the ledger still has them.
  await engine.redis.del(engine.keys.references)
  await deleteAuction(engine, auction.id)
  expect(failing).toHaveBeenCalledTimes(2)
  await outbox.drain()
  expect(await engine.getBalance(user.id)).toBe(3)
  expect(await ledgerSum(prisma, user.id)).toBe(0)
  expect(await prisma.auction.count({ where: { id: auction.id } })).toBe(0)
})
