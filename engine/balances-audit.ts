import type { Engine } from './engine.ts'

// Bid balances checked against the ledger (docs/operations.md "Redis lost"). Every change to a
// balance writes a BalanceLedger row in the same Postgres transaction that moves
// User.bidBalance, so a user's ledger sum is what their balance must be once the outbox is
// written. Redis holds the hot copy; after a loss of Redis (or a doubt) this module finds and
// repairs any difference.

export type BalanceRow = {
  userId: string
  username: string
  /** Sum of the user's ledger rows. */
  ledger: number
  /** User.bidBalance in Postgres. */
  postgres: number
  /** The hot balance in Redis; null when Redis does not hold the user. */
  redis: number | null
}

export type BalanceAudit = {
  checked: number
  /** Outbox entries not yet written to Postgres: while above 0, Postgres is behind Redis. */
  outboxLag: number
  mismatches: BalanceRow[]
}

export class OutboxNotDrained extends Error {
  constructor(readonly lag: number) {
    super(`the outbox still holds ${lag} entries not written to Postgres; drain it first`)
  }
}

/** Compares ledger sums, Postgres balances and Redis balances of every user. */
export async function auditBalances(engine: Engine): Promise<BalanceAudit> {
  // Written entries are deleted from the stream, so its length is what Postgres still lacks.
  const outboxLag = await engine.redis.xlen(engine.keys.outbox)
  const rows = await engine.prisma.$queryRaw<
    Array<{ id: string; username: string; bidBalance: number; ledger: number }>
  >`
    SELECT u.id, u.username, u."bidBalance",
      COALESCE((SELECT SUM(l.amount) FROM "BalanceLedger" l WHERE l."userId" = u.id), 0)::INTEGER
        AS ledger
    FROM "User" u ORDER BY u."createdAt", u.id`
  const mismatches: BalanceRow[] = []
  const BATCH = 500
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH)
    const pipeline = engine.redis.pipeline()
    for (const row of batch) pipeline.hget(engine.keys.user(row.id), 'bal')
    const replies = (await pipeline.exec()) ?? []
    batch.forEach((row, index) => {
      const [error, value] = replies[index] ?? [null, null]
      if (error) throw error
      const redis = value === null || value === undefined ? null : Number(value)
      if (row.ledger !== row.bidBalance || (redis !== null && redis !== row.ledger)) {
        mismatches.push({
          userId: row.id,
          username: row.username,
          ledger: row.ledger,
          postgres: row.bidBalance,
          redis,
        })
      }
    })
  }
  return { checked: rows.length, outboxLag, mismatches }
}

/**
 * Makes every balance equal its ledger sum: User.bidBalance is corrected in Postgres and the
 * user's hot copy in Redis is dropped, so the engine loads the corrected value on next use.
 * Refuses while the outbox is not drained (the ledger would be behind Redis). Meant for a
 * stopped or quiet site: a bid between the audit and the repair of that same user would be
 * overwritten in Redis (its ledger row still lands, and a second run shows the difference).
 */
export async function rebuildBalances(engine: Engine): Promise<{ repaired: BalanceRow[] }> {
  const audit = await auditBalances(engine)
  if (audit.outboxLag > 0) throw new OutboxNotDrained(audit.outboxLag)
  for (const row of audit.mismatches) {
    await engine.prisma.user.update({
      where: { id: row.userId },
      data: { bidBalance: row.ledger },
    })
    // Only the balance field goes; the name and last-bid time stay for the 1 s rule.
    await engine.redis.hdel(engine.keys.user(row.userId), 'bal')
  }
  return { repaired: audit.mismatches }
}
