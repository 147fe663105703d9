import { expect, test } from 'vitest'
import { createAuction, createUser } from '../../engine/test-support.ts'
import { bidsSpentOn, getAuctionCosts } from '~/models/auction-cost.server.ts'
import { getBuyNowOffer } from '~/models/order.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// What an auction has cost a person, on the real Postgres
// (docs/decisions/083-what-an-auction-has-cost-you.md): free credits are spent first, by the
// bids and prebids in the order they were placed across all auctions.

const prisma = getPrisma()
const start = Date.now() - 3600_000
const at = (seconds: number) => new Date(start + seconds * 1000)

async function person(freeCredits: number) {
  const user = await createUser(prisma, freeCredits)
  if (freeCredits > 0) {
    await prisma.balanceLedger.create({
      data: {
        userId: user.id,
        amount: freeCredits,
        balanceAfter: freeCredits,
        reason: 'registration_bonus',
        reference: `registration:${user.id}`,
        createdAt: at(0),
      },
    })
  }
  // Bought bids are not free.
  await prisma.balanceLedger.create({
    data: {
      userId: user.id,
      amount: 50,
      balanceAfter: freeCredits + 50,
      reason: 'topup',
      reference: `topup:${user.id}`,
      createdAt: at(1),
    },
  })
  return user
}

const bid = (auctionId: string, userId: string | null, second: number, extra = {}) =>
  prisma.bid.create({
    data: { auctionId, userId, amount: second, createdAt: at(second), ...extra },
  })

test('5 free credits: 3 bids on A, a prebid on B, 4 bids on C give A 3, B 1 and C 1 free', async () => {
  const user = await person(5)
  const [a, b, c] = [
    await createAuction(prisma),
    await createAuction(prisma),
    await createAuction(prisma),
  ]
  for (const second of [10, 11, 12]) await bid(a.id, user.id, second)
  await prisma.prebid.create({ data: { auctionId: b.id, userId: user.id, createdAt: at(20) } })
  for (const second of [30, 31, 32, 33]) await bid(c.id, user.id, second)
  // Bot bids and other people's are not theirs.
  await bid(c.id, null, 34, { isBot: true, botName: 'Азамат' })
  await bid(c.id, (await person(5)).id, 35)
  const untouched = await createAuction(prisma)

  const costs = await getAuctionCosts(user.id, [a.id, b.id, c.id, untouched.id])
  expect(costs[a.id]).toEqual({ bids: 3, free: 3, value: 45_00, buyNowPrice: 1000_00 - 45_00 })
  expect(costs[b.id]).toEqual({ bids: 1, free: 1, value: 15_00, buyNowPrice: 1000_00 - 15_00 })
  expect(costs[c.id]).toEqual({ bids: 4, free: 1, value: 60_00, buyNowPrice: 1000_00 - 60_00 })
  // Nothing spent, nothing shown.
  expect(costs[untouched.id]).toBeUndefined()
  // Each auction's figures do not depend on which others are asked for with it.
  expect(await getAuctionCosts(user.id, [c.id])).toEqual({ [c.id]: costs[c.id] })
})

test('Buy It Now never goes below 0, and a bid-package auction has none', async () => {
  const user = await person(0)
  const cheap = await createAuction(prisma)
  const pack = await createAuction(prisma)
  await prisma.auction.update({ where: { id: cheap.id }, data: { retailPrice: 20_00 } })
  await prisma.auction.update({
    where: { id: pack.id },
    data: { isBidPackage: true, packageBids: 66 },
  })
  for (const second of [10, 11]) await bid(cheap.id, user.id, second)
  await bid(pack.id, user.id, 12)
  const costs = await getAuctionCosts(user.id, [cheap.id, pack.id])
  expect(costs[cheap.id]).toEqual({ bids: 2, free: 0, value: 30_00, buyNowPrice: 0 })
  expect(costs[pack.id]).toEqual({ bids: 1, free: 0, value: 15_00, buyNowPrice: null })
})

test('a converted prebid is one bid, placed when the prebid was', async () => {
  const user = await person(1)
  const d = await createAuction(prisma)
  const e = await createAuction(prisma)
  // The prebid on D (second 10) comes before the bid on E (20), though D starts later (30).
  await prisma.prebid.create({
    data: { auctionId: d.id, userId: user.id, createdAt: at(10), convertedAt: at(30) },
  })
  await bid(e.id, user.id, 20)
  await bid(d.id, user.id, 30, { isPrebid: true })
  await bid(d.id, user.id, 40)

  const costs = await getAuctionCosts(user.id, [d.id, e.id])
  expect(costs[d.id]).toMatchObject({ bids: 2, free: 1 })
  expect(costs[e.id]).toMatchObject({ bids: 1, free: 0 })
  expect((await bidsSpentOn(user.id, [d.id])).get(d.id)?.bids).toBe(2)

  // Buy It Now counts the same bids (one function for both).
  await prisma.auction.update({
    where: { id: d.id },
    data: { status: 'finished', endTime: new Date(), finalPrice: 40 },
  })
  expect(await getBuyNowOffer(d.id, user.id)).toMatchObject({
    available: true,
    bidsSpent: 2,
    price: costs[d.id]!.buyNowPrice,
  })
})

test("a prebid the outbox has not written yet counts as the person's newest bid", async () => {
  const user = await person(2)
  const a = await createAuction(prisma)
  const upcoming = await createAuction(prisma, { startTime: new Date(Date.now() + 3600_000) })
  await bid(a.id, user.id, 10)
  expect(await getAuctionCosts(user.id, [upcoming.id])).toEqual({})
  const pending = { pendingPrebidOn: upcoming.id }
  expect((await getAuctionCosts(user.id, [upcoming.id], pending))[upcoming.id]).toMatchObject({
    bids: 1,
    free: 1,
  })
  // Once written it is counted once; with the free credits used up, the next is not free.
  await prisma.prebid.create({
    data: { auctionId: upcoming.id, userId: user.id, createdAt: at(20) },
  })
  expect((await getAuctionCosts(user.id, [upcoming.id], pending))[upcoming.id]).toMatchObject({
    bids: 1,
    free: 1,
  })
  const later = await createAuction(prisma, { startTime: new Date(Date.now() + 3600_000) })
  expect(
    (await getAuctionCosts(user.id, [later.id], { pendingPrebidOn: later.id }))[later.id],
  ).toMatchObject({ bids: 1, free: 0 })
})
