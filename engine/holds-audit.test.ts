import { expect, test } from 'vitest'
import { auditHolds } from './holds-audit.ts'
import { createUser, liveAuction, startNow, testEngine, upcomingAuction } from './test-support.ts'

// `npm run balances` also finds what people paid for and neither got as bids nor back: the
// marks Redis data loss left before loads rebuilt prebids and budgets (engine/holds.ts).

test('a charged prebid that is neither a bid nor refunded, and a budget Redis lost, are reported', async () => {
  const { engine, outbox, prisma, redis } = testEngine()
  const upcoming = await upcomingAuction(engine)
  const live = await liveAuction(engine)
  const [a, b] = [await createUser(prisma, 5), await createUser(prisma, 5)]
  await engine.prebid(upcoming.id, a.id)
  await engine.prebid(upcoming.id, b.id)
  await engine.setAutoBid(live.id, a.id, 3)
  await engine.autoBid(live.id, a.id)
  await outbox.drain()
  expect(await auditHolds(engine)).toEqual({ prebids: [], budgets: [] })

  // What a reload without them left: the prebid set and a budget gone from Redis.
  await redis.zrem(engine.keys.prebids(upcoming.id), a.id)
  await redis.hdel(engine.keys.autoBids(live.id), `r:${a.id}`)
  const charge = await prisma.balanceLedger.findFirstOrThrow({
    where: { userId: a.id, auctionId: upcoming.id, reason: 'prebid' },
  })
  expect(await auditHolds(engine)).toEqual({
    prebids: [
      {
        userId: a.id,
        auctionId: upcoming.id,
        reference: charge.reference,
        problem: 'not_in_redis',
      },
    ],
    budgets: [{ userId: a.id, auctionId: live.id, owed: 2, redis: null }],
  })

  // The auction starts without that prebid: it never became a bid.
  await startNow(engine, upcoming.id)
  await outbox.drain()
  expect((await auditHolds(engine)).prebids).toEqual([
    { userId: a.id, auctionId: upcoming.id, reference: charge.reference, problem: 'not_a_bid' },
  ])
})
