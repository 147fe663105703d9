import { expect, test, vi } from 'vitest'
import { createAuction, createUser, testEngine } from '../../engine/test-support.ts'
import { AdminError, deleteAuction } from '~/models/admin-auctions.server.ts'
import { deleteUser } from '~/models/admin-users.server.ts'

// Admin deletes against real Redis and Postgres (docs/decisions/029-nothing-paid-disappears.md).

test('an upcoming auction that starts between the check and the removal is refused, and stays live', async () => {
  const { engine, prisma } = testEngine()
  const auction = await createAuction(prisma, { startTime: new Date(Date.now() + 3_600_000) })
  await engine.loadAuction(auction.id)
  const user = await createUser(prisma, 3)
  expect((await engine.prebid(auction.id, user.id)).ok).toBe(true)
  // The admin's page read it upcoming; it starts right after that read.
  const seen = await engine.getState(auction.id)
  await prisma.auction.update({
    where: { id: auction.id },
    data: { startTime: new Date(Date.now() - 1000) },
  })
  await engine.loadAuction(auction.id)
  await engine.sweep()
  vi.spyOn(engine, 'getState').mockResolvedValueOnce(seen)

  const refused = await deleteAuction(engine, auction.id).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(AdminError)
  expect(refused).toMatchObject({ status: 409, key: 'errors.startedMeanwhile' })
  expect(await engine.getState(auction.id)).toMatchObject({ status: 'live', lastBidder: user.id })
  expect(await prisma.auction.count({ where: { id: auction.id } })).toBe(1)
  // The prebid is a bid in a race that runs: nothing was refunded.
  expect(await engine.getBalance(user.id)).toBe(2)
})

test('a deleted account leaves the engine in the same step; a failed engine step keeps the account', async () => {
  const { engine, prisma } = testEngine()
  const auction = await createAuction(prisma, { startTime: new Date(Date.now() + 3_600_000) })
  await engine.loadAuction(auction.id)
  const user = await createUser(prisma, 3)
  expect((await engine.prebid(auction.id, user.id)).ok).toBe(true)
  await prisma.prebid.create({ data: { auctionId: auction.id, userId: user.id } })
  await prisma.auction.update({ where: { id: auction.id }, data: { prebidsCount: 1 } })

  const failing = vi.spyOn(engine, 'removeUser').mockRejectedValueOnce(new Error('Redis is down'))
  await expect(deleteUser(engine, 'an-admin', user.id)).rejects.toThrow('Redis is down')
  expect(await prisma.user.count({ where: { id: user.id } })).toBe(1)
  expect(await engine.hasPrebid(auction.id, user.id)).toBe(true)
  failing.mockRestore()

  await deleteUser(engine, 'an-admin', user.id)
  expect(await prisma.user.count({ where: { id: user.id } })).toBe(0)
  expect(await engine.hasPrebid(auction.id, user.id)).toBe(false)
  expect(await engine.getState(auction.id)).toMatchObject({ prebids: 0 })
  expect(await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })).toMatchObject({
    prebidsCount: 0,
  })
  expect(await engine.getBalance(user.id)).toBeNull()
})
