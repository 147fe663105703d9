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
