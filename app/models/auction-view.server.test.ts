import { expect, test } from 'vitest'
import { createAuction, createUser, testEngine } from '../../engine/test-support.ts'
import { getAuctionById } from '~/models/auction-view.server.ts'

test("a finished auction's last bidder is its winner, a person or a bot, and nobody without bids", async () => {
  const { engine, prisma } = testEngine()
  const person = await createUser(prisma)
  const finished = async (won: 'person' | 'bot' | 'nobody') => {
    const auction = await createAuction(prisma, { startTime: new Date(Date.now() - 60_000) })
    await prisma.auction.update({
      where: { id: auction.id },
      data: {
        status: 'finished',
        endTime: new Date(),
        finalPrice: won === 'nobody' ? null : 10,
        winnerId: won === 'person' ? person.id : null,
        winnerBotName: won === 'bot' ? 'Азамат' : null,
      },
    })
    return (await getAuctionById(engine, auction.id))!
  }
  expect(await finished('person')).toMatchObject({
    status: 'finished',
    lastBidder: person.username,
    lastBidderIsBot: false,
    winner: { username: person.username },
  })
  expect(await finished('bot')).toMatchObject({
    lastBidder: 'Азамат',
    lastBidderIsBot: true,
    winner: null,
    winnerBotName: 'Азамат',
  })
  expect(await finished('nobody')).toMatchObject({ lastBidder: null, lastBidderIsBot: false })
})

test('an auction closes to new bidders lockAfterMinutes after its start, and says so while live', async () => {
  const { engine, prisma } = testEngine()
  const minute = 60_000
  const auction = async (startsIn: number, lockAfterMinutes: number | null, status = 'live') => {
    const row = await createAuction(prisma, { startTime: new Date(Date.now() + startsIn) })
    await prisma.auction.update({
      where: { id: row.id },
      data: { lockAfterMinutes, beginnerOnly: true, status: status as 'live' },
    })
    return (await getAuctionById(engine, row.id))!
  }
  expect(await auction(-10 * minute, 5)).toMatchObject({
    beginnerOnly: true,
    lockAfterMinutes: 5,
    lockIn: 0,
    locked: true,
  })
  const open = await auction(-10 * minute, 30)
  expect(open).toMatchObject({ lockAfterMinutes: 30, locked: false })
  expect(open.lockIn).toBeGreaterThan(19 * minute)
  expect(open.lockIn).toBeLessThanOrEqual(20 * minute)
  const upcoming = await auction(60 * minute, 30, 'upcoming')
  expect(upcoming).toMatchObject({ status: 'upcoming', locked: false })
  expect(upcoming.lockIn).toBeGreaterThan(89 * minute)
  expect(await auction(-10 * minute, null)).toMatchObject({ lockIn: null, locked: false })
  expect(await auction(-60 * minute, 5, 'finished')).toMatchObject({ lockIn: null, locked: false })
})
