import { expect, test } from 'vitest'
import { createAuction, createUser, testEngine } from '../../engine/test-support.ts'
import { getHomeAuctionRows } from '~/models/auction-rows.server.ts'

const DAY_MS = 24 * 60 * 60 * 1000

test('winners of the day are the latest five finished auctions with a winner, however long ago', async () => {
  const { engine, prisma } = testEngine()
  const winner = await createUser(prisma)
  const finish = async (daysAgo: number, won: 'person' | 'bot' | 'nobody') => {
    const auction = await createAuction(prisma, { startTime: new Date(Date.now() - 30 * DAY_MS) })
    return prisma.auction.update({
      where: { id: auction.id },
      data: {
        status: 'finished',
        endTime: new Date(Date.now() - daysAgo * DAY_MS),
        finalPrice: 10,
        winnerId: won === 'person' ? winner.id : null,
        winnerBotName: won === 'bot' ? 'Азамат' : null,
      },
      select: { id: true },
    })
  }
  // A quiet week: nothing finished in the last 24 hours.
  const nobody = await finish(2, 'nobody')
  const won = [
    await finish(3, 'person'),
    await finish(4, 'bot'),
    await finish(5, 'person'),
    await finish(6, 'person'),
    await finish(7, 'person'),
  ]
  const oldest = await finish(8, 'person')
  const { winners } = await getHomeAuctionRows(engine, 9)
  expect(winners.map((row) => row.id)).toEqual(won.map((row) => row.id))
  expect(winners.map((row) => row.id)).not.toContain(nobody.id)
  expect(winners.map((row) => row.id)).not.toContain(oldest.id)
})
