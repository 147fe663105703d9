import { expect, test } from 'vitest'
import { createUser, testEngine } from '../../../engine/test-support.ts'
import { DEAD_KEPT_MS, pruneSettled, SETTLED_KEPT_MS } from '~/services/alerts/deliveries.server.ts'

test('records of alerts done with are deleted after 30 days, dead letters after 90, pending never', async () => {
  const { prisma } = testEngine()
  const user = await createUser(prisma)
  const now = new Date('2026-11-28T12:00:00Z')
  const ago = (ms: number) => new Date(now.getTime() - ms)
  const rows = [
    { key: 'sent-new', status: 'sent', createdAt: ago(SETTLED_KEPT_MS - 60_000) },
    { key: 'sent-old', status: 'sent', createdAt: ago(SETTLED_KEPT_MS + 60_000) },
    { key: 'gone-old', status: 'gone', createdAt: ago(SETTLED_KEPT_MS + 60_000) },
    { key: 'expired-old', status: 'expired', createdAt: ago(SETTLED_KEPT_MS + 60_000) },
    { key: 'dead-31d', status: 'dead', createdAt: ago(SETTLED_KEPT_MS + 60_000) },
    { key: 'dead-old', status: 'dead', createdAt: ago(DEAD_KEPT_MS + 60_000) },
    { key: 'pending-old', status: 'pending', createdAt: ago(DEAD_KEPT_MS + 60_000) },
  ]
  await prisma.alertDelivery.createMany({
    data: rows.map((row) => ({ ...row, userId: user.id, channel: 'telegram', kind: 'won' })),
  })
  expect(await pruneSettled(now)).toBe(4)
  const left = await prisma.alertDelivery.findMany({
    select: { key: true },
    orderBy: { key: 'asc' },
  })
  expect(left.map((row) => row.key)).toEqual(['dead-31d', 'pending-old', 'sent-new'])
  expect(await pruneSettled(now)).toBe(0)
})
