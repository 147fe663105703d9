import type { Engine } from './engine.ts'

// Paid-for holds checked against the ledger (`npm run balances`, docs/operations.md): every
// charged prebid must become a bid, be refunded or wait in its upcoming auction, and every bid
// reserved for an auto-bidder must be placed, given back or still held in Redis. Conclusive
// while the outbox lag is 0; auctions no longer in Postgres are not checked (their bids went
// with them).

export type PrebidProblem = {
  userId: string
  auctionId: string
  /** The charge's ledger reference (`prebid:<prebid id>`). */
  reference: string
  /** `not_a_bid`: its auction started or finished without it; `not_in_redis`: the upcoming auction Redis holds lacks it. */
  problem: 'not_a_bid' | 'not_in_redis'
}

export type BudgetProblem = {
  userId: string
  auctionId: string
  /** Bids the ledger says are reserved and not given back, less the auto bids placed. */
  owed: number
  /** What Redis holds of the budget (null: nothing). */
  redis: number | null
}

export type HoldsAudit = { prebids: PrebidProblem[]; budgets: BudgetProblem[] }

export async function auditHolds(engine: Engine): Promise<HoldsAudit> {
  return { prebids: await auditPrebids(engine), budgets: await auditBudgets(engine) }
}

async function auditPrebids(engine: Engine): Promise<PrebidProblem[]> {
  const rows = await engine.prisma.$queryRaw<
    Array<{ userId: string; auctionId: string; reference: string; status: string }>
  >`
    SELECT l."userId", l."auctionId", l.reference, a.status::text AS status
    FROM "BalanceLedger" l JOIN "Auction" a ON a.id = l."auctionId"
    WHERE l.reason = 'prebid' AND l."userId" IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM "Bid" b
        WHERE b."auctionId" = l."auctionId" AND b."userId" = l."userId" AND b."isPrebid")
      AND NOT EXISTS (SELECT 1 FROM "BalanceLedger" r WHERE r.reference IN
        ('prebid-refund:' || substr(l.reference, 8),
         'refund:prebid:' || l."auctionId" || ':' || l."userId"))
    ORDER BY l."createdAt"`
  const problems: PrebidProblem[] = []
  for (const row of rows) {
    const { userId, auctionId, reference } = row
    if (row.status !== 'upcoming') {
      problems.push({ userId, auctionId, reference, problem: 'not_a_bid' })
      continue
    }
    // Waiting for its start. Not loaded: a load puts it back; started in Redis: its
    // conversion is on its way to Postgres.
    const [status, held] = await Promise.all([
      engine.redis.hget(engine.keys.auction(auctionId), 'status'),
      engine.redis.zscore(engine.keys.prebids(auctionId), userId),
    ])
    if (status === 'upcoming' && held === null)
      problems.push({ userId, auctionId, reference, problem: 'not_in_redis' })
  }
  return problems
}

async function auditBudgets(engine: Engine): Promise<BudgetProblem[]> {
  const rows = await engine.prisma.$queryRaw<
    Array<{ userId: string; auctionId: string; status: string; owed: number }>
  >`
    SELECT l."userId", l."auctionId", a.status::text AS status,
      (-SUM(l.amount) - (SELECT count(*) FROM "Bid" b WHERE b."auctionId" = l."auctionId"
        AND b."userId" = l."userId" AND b."isAuto"))::int AS owed
    FROM "BalanceLedger" l JOIN "Auction" a ON a.id = l."auctionId"
    WHERE l.reason IN ('autobid_reserve', 'autobid_return') AND l."userId" IS NOT NULL
    GROUP BY 1, 2, 3`
  const problems: BudgetProblem[] = []
  for (const row of rows) {
    const { userId, auctionId, owed } = row
    const [held, auctionStatus] = await Promise.all([
      engine.redis.hget(engine.keys.autoBids(auctionId), `r:${userId}`),
      engine.redis.hget(engine.keys.auction(auctionId), 'status'),
    ])
    const redis = held === null ? null : Number(held)
    // An unfinished auction Redis does not hold gets its budgets back when it is loaded.
    if (redis === null && row.status !== 'finished' && auctionStatus === null) continue
    if (owed !== (redis ?? 0)) problems.push({ userId, auctionId, owed, redis })
  }
  return problems
}
