import { expect, test } from 'vitest'
import { auditLateBids } from './bids-audit.ts'
import { createUser, liveAuction, testEngine } from './test-support.ts'

// `npm run balances` finds a bid a finished auction took after its end or above its final price.

test('bids of a finished auction after its end or above its final price are reported', async () => {
  const { engine, outbox, prisma } = testEngine()
  const auction = await liveAuction(engine)
  const user = await createUser(prisma, 5)
  await engine.bid(auction.id, user.id)
  await engine.endAuction(auction.id)
  await outbox.drain()
  const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
  expect(row.status).toBe('finished')
  const mine = async () => (await auditLateBids(prisma)).filter((b) => b.auctionId === auction.id)
  expect(await mine()).toEqual([])

  // A bid written as if taken a second after the end, and one above the final price.
  const late = await prisma.bid.create({
    data: {
      auctionId: auction.id,
      userId: user.id,
      amount: row.finalPrice!,
      createdAt: new Date(row.endTime!.getTime() + 1_000),
    },
  })
  const above = await prisma.bid.create({
    data: {
      auctionId: auction.id,
      userId: user.id,
      amount: row.finalPrice! + 1,
      createdAt: row.endTime!,
    },
  })
  expect((await mine()).map((b) => b.bidId)).toEqual([above.id, late.id])
})
