import { expect, test } from 'vitest'
import type { Engine } from './engine.ts'
import { auditHolds } from './holds-audit.ts'
import { createUser, liveAuction, testEngine } from './test-support.ts'

/** The outbox's entries as the writer reads them. */
async function outboxEntries(engine: Engine) {
  return (await engine.redis.xrange(engine.keys.outbox, '-', '+')).map(([id, flat]) => {
    const fields: Record<string, string> = {}
    for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
    return { id, fields }
  })
}

// A dead instance's unacknowledged outbox entries are claimed by another one 30 s later, after
// newer entries of the same users were written: the older ones must not set balances back.
test('entries written out of order leave each balance equal to its ledger sum', async () => {
  const { engine, outbox, prisma } = testEngine()
  const user = await createUser(prisma, 10)
  await engine.credit(user.id, 5, 'topup', `order-a-${user.id}`)
  await engine.credit(user.id, 3, 'topup', `order-b-${user.id}`)
  const entries = await outboxEntries(engine)
  expect(entries).toHaveLength(2)

  await outbox.apply([entries[1]!])
  await outbox.apply([entries[0]!])
  // A replay of both changes nothing.
  await outbox.apply(entries)

  const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
  expect(row.bidBalance).toBe(18)
  expect(await engine.getBalance(user.id)).toBe(18)
})

// The same for an auto-bidder: its bids and its return may be written before the reserve that
// opened its row (the reserve's entry claimed late from a dead instance). Each count still lands
// on the row, so a reload from Postgres gives Redis what the ledger says is owed.
test("an auto-bidder's bids and return written before its reserve still count on its row", async () => {
  const { engine, outbox, prisma } = testEngine()
  const auction = await liveAuction(engine)
  const user = await createUser(prisma, 10)
  expect((await engine.setAutoBid(auction.id, user.id, 3)).ok).toBe(true)
  expect((await engine.autoBid(auction.id, user.id)).ok).toBe(true)
  expect((await engine.stopAutoBid(auction.id, user.id)).ok).toBe(true)
  const entries = await outboxEntries(engine)
  const [start, reserve, bid, giveBack] = entries
  const label = ({ fields }: (typeof entries)[number]) =>
    fields.type === 'autobid' ? fields.kind : fields.type
  expect(entries.map(label)).toEqual(['start', 'reserve', 'bid', 'return'])

  // The bid, then the return, then the reserve; then all again.
  for (const entry of [start, bid, giveBack, reserve]) await outbox.apply([entry!])
  await outbox.apply(entries)

  const row = await prisma.autoBid.findFirstOrThrow({
    where: { auctionId: auction.id, userId: user.id },
  })
  expect({ budget: row.budget, placed: row.placed, returned: row.returned }).toEqual({
    budget: 3,
    placed: 1,
    returned: 2,
  })
  expect(await auditHolds(engine)).toMatchObject({ budgets: [] })
  const person = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
  expect(person.bidBalance).toBe(9)
})
