import type { AlertChannelName, AlertKind } from '~/models/alert-kinds.ts'
import type { AlertJob } from '~/services/alerts/queue-keys.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The alerts' record in Postgres (AlertDelivery, docs/decisions/064-alerts-recorded-before-queued.md):
// an alert is written `pending` before it is queued in Redis, and its row says what became of it.
// Redis only carries the work; a pending row whose job Redis lost is queued again from here.

/** What became of an alert; `pending` until then. */
export type DeliveryStatus =
  'pending' | 'sent' | 'dead' | 'gone' | 'expired' | 'off' | 'unreachable' | 'dropped'

const isGoneUser = (failure: unknown) => (failure as { code?: string } | null)?.code === 'P2003'

/**
 * Records the jobs as pending; answers the ones that were not recorded before (a repeat of a
 * person's alert key on a channel is not: it is the same alert).
 */
export async function recordPending(jobs: readonly AlertJob[]): Promise<AlertJob[]> {
  const byKey = new Map(jobs.map((job) => [`${job.userId}|${job.channel}|${job.key}`, job]))
  if (byKey.size === 0) return []
  const data = [...byKey.values()].map((job) => ({
    userId: job.userId,
    channel: job.channel,
    key: job.key,
    kind: job.kind,
    status: 'pending' satisfies DeliveryStatus,
    attempts: job.attempt,
    auctionId: job.auctionId ?? null,
    orderId: job.orderId ?? null,
    expiresAt: job.expiresAt === undefined ? null : new Date(job.expiresAt),
    createdAt: new Date(job.queuedAt),
  }))
  const prisma = getPrisma()
  const insert = (rows: typeof data) =>
    prisma.alertDelivery.createManyAndReturn({
      data: rows,
      skipDuplicates: true,
      select: { userId: true, channel: true, key: true },
    })
  let created
  try {
    created = await insert(data)
  } catch (failure) {
    if (!isGoneUser(failure)) throw failure
    // Someone was deleted meanwhile: their alerts went with them; the others are recorded.
    const ids = [...new Set(data.map((row) => row.userId))]
    const present = await prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true } })
    const kept = new Set(present.map((user) => user.id))
    created = await insert(data.filter((row) => kept.has(row.userId)))
  }
  return created.map((row) => byKey.get(`${row.userId}|${row.channel}|${row.key}`)!)
}

/** Where the alert stands: null when it was never recorded (queued before alerts were). */
export async function deliveryStatus(job: AlertJob): Promise<DeliveryStatus | null> {
  const row = await getPrisma().alertDelivery.findUnique({
    where: { userId_channel_key: { userId: job.userId, channel: job.channel, key: job.key } },
    select: { status: true },
  })
  return (row?.status as DeliveryStatus | undefined) ?? null
}

/** Records what became of the alert; `job.attempt` is the attempts made. */
export async function recordOutcome(job: AlertJob, status: DeliveryStatus, error?: string) {
  const where = { userId: job.userId, channel: job.channel, key: job.key }
  const data = { kind: job.kind, status, attempts: job.attempt, error: error ?? null }
  // The person may be gone meanwhile (their rows went with them): nothing to record then.
  await getPrisma()
    .alertDelivery.upsert({
      where: { userId_channel_key: where },
      create: { ...where, ...data },
      update: data,
    })
    .catch((failure: unknown) => {
      if (!isGoneUser(failure)) throw failure
    })
}

const PAGE = 500

/**
 * Every pending alert on these channels, oldest first, as the queue's jobs: what the recovery
 * pass offers the queue again (app/services/alerts/recovery.server.ts).
 */
export async function* pendingJobs(channels: readonly AlertChannelName[]) {
  let after: { createdAt: Date; id: string } | undefined
  for (;;) {
    const rows = await getPrisma().alertDelivery.findMany({
      where: {
        status: 'pending' satisfies DeliveryStatus,
        channel: { in: [...channels] },
        ...(after
          ? {
              OR: [
                { createdAt: { gt: after.createdAt } },
                { createdAt: after.createdAt, id: { gt: after.id } },
              ],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: PAGE,
    })
    yield rows.map((row): AlertJob => ({
      userId: row.userId,
      kind: row.kind as AlertKind,
      key: row.key,
      channel: row.channel as AlertChannelName,
      attempt: row.attempts,
      queuedAt: row.createdAt.getTime(),
      ...(row.auctionId ? { auctionId: row.auctionId } : {}),
      ...(row.orderId ? { orderId: row.orderId } : {}),
      ...(row.expiresAt ? { expiresAt: row.expiresAt.getTime() } : {}),
    }))
    if (rows.length < PAGE) return
    const last = rows[rows.length - 1]!
    after = { createdAt: last.createdAt, id: last.id }
  }
}

const DAY_MS = 24 * 60 * 60 * 1000
/** How long an alert's record is kept once done with; a dead letter, longer (docs/rules.md#alerts). */
export const SETTLED_KEPT_MS = 30 * DAY_MS
export const DEAD_KEPT_MS = 90 * DAY_MS
const PRUNE_BATCH = 5_000

/**
 * Deletes the records of alerts done with long ago: older than 30 days, a dead letter older than
 * 90. A pending alert is never deleted (the recovery pass needs it), and an old alert's key
 * cannot come back (each names a minute, an auction's finish or start, an order or a payment),
 * so nothing is sent twice for it. In batches, so that no delete holds the table for long.
 */
export async function pruneSettled(now = new Date()): Promise<number> {
  const settledBefore = new Date(now.getTime() - SETTLED_KEPT_MS)
  const deadBefore = new Date(now.getTime() - DEAD_KEPT_MS)
  let deleted = 0
  for (;;) {
    const count = await getPrisma().$executeRaw`
      DELETE FROM "AlertDelivery" WHERE id IN (
        SELECT id FROM "AlertDelivery"
        WHERE status <> 'pending'
          AND "createdAt" < ${settledBefore}
          AND (status <> 'dead' OR "createdAt" < ${deadBefore})
        LIMIT ${PRUNE_BATCH})`
    deleted += count
    if (count < PRUNE_BATCH) return deleted
  }
}
