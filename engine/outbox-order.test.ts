import { expect, test } from 'vitest'
import { createUser, testEngine } from './test-support.ts'

// A dead instance's unacknowledged outbox entries are claimed by another one 30 s later, after
// newer entries of the same users were written: the older ones must not set balances back.
test('entries written out of order leave each balance equal to its ledger sum', async () => {
  const { engine, outbox, prisma } = testEngine()
  const user = await createUser(prisma, 10)
  await engine.credit(user.id, 5, 'topup', `order-a-${user.id}`)
  await engine.credit(user.id, 3, 'topup', `order-b-${user.id}`)
  const entries = (await engine.redis.xrange(engine.keys.outbox, '-', '+')).map(([id, flat]) => {
    const fields: Record<string, string> = {}
    for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
    return { id, fields }
  })
  expect(entries).toHaveLength(2)

  await outbox.apply([entries[1]!])
  await outbox.apply([entries[0]!])
  // A replay of both changes nothing.
  await outbox.apply(entries)

  const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
  expect(row.bidBalance).toBe(18)
  expect(await engine.getBalance(user.id)).toBe(18)
})
