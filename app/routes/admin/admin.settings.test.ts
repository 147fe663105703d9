import { expect, test } from 'vitest'
import { Engine, OutboxWorker } from '../../../engine/index.ts'
import { createUser } from '../../../engine/test-support.ts'
import { adminCookie } from '../../../tests/support/admin-session.ts'
import { freeBidsPerAddress } from '~/services/rate-limit.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { loader } from './admin.settings.tsx'

// /admin/settings shows how many free bids were given today (docs/rules.md#admin-settings): the
// figure the switch "free bids need a verified phone" is decided on.

test("the settings page counts today's free-bid grants, and says the daily cap per address", async () => {
  const engine = new Engine({
    redis: getRedis(),
    prisma: getPrisma(),
    prefix: getEnv().REDIS_PREFIX,
  })
  const outbox = new OutboxWorker(engine, 'admin-settings-test', getEnv().DATABASE_URL)
  const cookie = await adminCookie()
  const page = async () => {
    await outbox.drain()
    const request = new Request('http://localhost/admin/settings', {
      headers: { Cookie: cookie, 'Accept-Language': 'en' },
    })
    return (await loader({ request, params: {}, context: {} as never })).freeGrants
  }
  const before = await page()
  expect(before.perAddress).toBe(freeBidsPerAddress().limit)
  for (const reference of ['registration:a', 'registration:b']) {
    const person = await createUser(getPrisma(), 0)
    expect(
      await engine.credit(person.id, 5, 'registration_bonus', `${reference}${person.id}`),
    ).toMatchObject({ ok: true })
  }
  // A top-up is no grant.
  const buyer = await createUser(getPrisma(), 0)
  await engine.credit(buyer.id, 50, 'topup', `topup:${buyer.id}`)
  expect((await page()).today).toBe(before.today + 2)
  await outbox.stop()
})
