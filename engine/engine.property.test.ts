import fc from 'fast-check'
import { expect, test } from 'vitest'
import type { BidResult } from './types.ts'
import { createUser, liveAuction, sleep, testEngine } from './test-support.ts'

// Many bidders at once on several auctions, in random orders and with random balances: the
// invariants of docs/rules.md#bidding hold in Redis, and Postgres equals Redis after the outbox
// drains.
test('concurrent bidders never break balances, prices or winners', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        auctions: fc.integer({ min: 1, max: 4 }),
        balances: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 10 }),
        rounds: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 4,
        }),
      }),
      async ({ auctions: auctionCount, balances, rounds }) => {
        const { engine, outbox, prisma } = testEngine({ timerMs: 60_000 })
        const users = await Promise.all(balances.map((balance) => createUser(prisma, balance)))
        const auctions = await Promise.all(
          Array.from({ length: auctionCount }, (_, i) => liveAuction(engine, i * 100)),
        )
        const accepted = new Map<string, Array<BidResult & { ok: true; userId: string }>>()
        const perUser = new Map<string, number>()

        for (const round of rounds) {
          // Every pick in a round is fired at the same moment.
          const results = await Promise.all(
            round.map(async (pick) => {
              const user = users[pick % users.length]!
              const auction = auctions[Math.floor(pick / users.length) % auctions.length]!
              return { user, auction, result: await engine.bid(auction.id, user.id) }
            }),
          )
          for (const { user, auction, result } of results) {
            if (!result.ok) {
              expect(['already_leading', 'too_fast', 'insufficient_bids']).toContain(result.reason)
              continue
            }
            const list = accepted.get(auction.id) ?? []
            list.push({ ...result, userId: user.id })
            accepted.set(auction.id, list)
            perUser.set(user.id, (perUser.get(user.id) ?? 0) + 1)
          }
          await sleep(1010)
        }

        // Balances never negative; each user's debits equal their accepted bids.
        for (const [index, user] of users.entries()) {
          const balance = (await engine.getBalance(user.id))!
          expect(balance).toBeGreaterThanOrEqual(0)
          expect(balances[index]! - balance).toBe(perUser.get(user.id) ?? 0)
        }
        // Price = start + increment x accepted bids; the leader is the last accepted bidder.
        for (const [index, auction] of auctions.entries()) {
          const list = (accepted.get(auction.id) ?? []).sort((a, b) => a.price - b.price)
          const state = (await engine.getState(auction.id))!
          expect(state.price).toBe(index * 100 + list.length)
          expect(state.bids).toBe(list.length)
          expect(list.map((bid) => bid.price)).toEqual(list.map((_, i) => index * 100 + i + 1))
          expect(state.lastBidder).toBe(list.at(-1)?.userId ?? null)
          for (let i = 1; i < list.length; i++)
            expect(list[i]!.userId).not.toBe(list[i - 1]!.userId)
        }

        // End every auction: exactly one winner each, the last accepted bidder.
        for (const auction of auctions) expect((await engine.endAuction(auction.id)).ok).toBe(true)
        await outbox.drain()
        for (const [index, auction] of auctions.entries()) {
          const list = accepted.get(auction.id) ?? []
          const row = await prisma.auction.findUniqueOrThrow({ where: { id: auction.id } })
          const winner = list.sort((a, b) => a.price - b.price).at(-1)?.userId ?? null
          expect(row).toMatchObject({
            status: 'finished',
            winnerId: winner,
            finalPrice: index * 100 + list.length,
            totalBids: list.length,
          })
          expect(await prisma.bid.count({ where: { auctionId: auction.id } })).toBe(list.length)
        }
        for (const [index, user] of users.entries()) {
          const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
          const spent = perUser.get(user.id) ?? 0
          expect(row.bidBalance).toBe(await engine.getBalance(user.id))
          expect(row.totalBids).toBe(spent)
          expect(row.totalSpent).toBe(spent)
          const ledger = await prisma.balanceLedger.aggregate({
            where: { userId: user.id },
            _sum: { amount: true },
          })
          expect(balances[index]! + (ledger._sum.amount ?? 0)).toBe(row.bidBalance)
        }
      },
    ),
    { numRuns: 5 },
  )
}, 120_000)
