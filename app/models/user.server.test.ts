import { expect, test } from 'vitest'
import { testEngine } from '../../engine/test-support.ts'
import { createUser } from '~/models/user.server.ts'

// A registration with replicas to wait for and none to answer (this test's Redis has none): the
// account and its free bids stay on the primary and the registration succeeds, rather than a 503
// for an account that already exists.
test('a registration whose free bids no replica confirms in time still succeeds', async () => {
  const { engine, prisma } = testEngine({ replicas: { count: 1, timeoutMs: 100 } })
  const name = `r${Date.now().toString(36)}`
  const user = await createUser(engine, {
    username: name,
    email: `${name}@example.com`,
    password: 'secret12',
    ipAddress: null,
  })
  expect(await prisma.user.findUnique({ where: { id: user.id } })).not.toBeNull()
  expect(await engine.getBalance(user.id)).toBe(5)
})
