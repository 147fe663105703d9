// npm run balances [-- --repair]
// Checks every user's bid balance against the ledger (Postgres balance and Redis hot copy),
// that every charged prebid and auto-bid budget is accounted for (engine/holds-audit.ts), every
// paid bid package credited exactly once and every refunded one's bids taken back once
// (app/services/payments/audit.server.ts), every paid bid-package auction's order credited
// exactly once (engine/package-orders.ts) and no bid taken after its auction's end
// (engine/bids-audit.ts); it names the bids refunded packages left with their buyers;
// with --repair, sets each wrong balance to its ledger sum. See docs/operations.md.
import { parseArgs } from 'node:util'
import {
  auditBalances,
  auditHolds,
  auditLateBids,
  auditPackageOrders,
  createRedis,
  Engine,
  rebuildBalances,
  redisTarget,
} from '../engine/index.ts'
import {
  auditPaymentCredits,
  bidsOwedAfterRefunds,
  isOnItsWay,
} from '../app/services/payments/audit.server.ts'
import { createPrismaClient } from '../app/utils/db.server.ts'
import { parseEnv } from '../app/utils/env.server.ts'

async function main() {
  const { values } = parseArgs({
    options: { repair: { type: 'boolean', default: false } },
    strict: true,
  })
  // The installation's environment, validated as a start would (REDIS_URL or its Sentinels).
  const env = parseEnv()
  const prisma = createPrismaClient(env.DATABASE_URL)
  const redis = createRedis(redisTarget(env), { maxRetriesPerRequest: 2 })
  const engine = new Engine({ redis, prisma, prefix: env.REDIS_PREFIX })
  try {
    const audit = await auditBalances(engine)
    console.log(
      `${audit.checked} users checked, ${audit.mismatches.length} balances differ from the ledger; ` +
        `outbox entries not yet in Postgres: ${audit.outboxLag}`,
    )
    for (const row of audit.mismatches) {
      console.log(
        `  ${row.username} (${row.userId}): ledger ${row.ledger}, Postgres ${row.postgres}, ` +
          `Redis ${row.redis ?? 'not loaded'}`,
      )
    }
    const holds = await auditHolds(engine)
    console.log(
      `${holds.prebids.length} charged prebids neither a bid, refunded nor waiting in Redis; ` +
        `${holds.budgets.length} auto-bid budgets not accounted for`,
    )
    for (const row of holds.prebids) {
      console.log(
        `  prebid ${row.reference} of ${row.userId} on ${row.auctionId}: ` +
          (row.problem === 'not_a_bid' ? 'the auction started without it' : 'missing in Redis'),
      )
    }
    for (const row of holds.budgets) {
      console.log(
        `  auto-bid budget of ${row.userId} on ${row.auctionId}: ledger owes ${row.owed}, ` +
          `Redis holds ${row.redis ?? 'nothing'}`,
      )
    }
    const checked = await auditPaymentCredits(prisma)
    const payments = checked.filter((row) => !isOnItsWay(row))
    const onItsWay = checked.filter(isOnItsWay)
    const lateBids = await auditLateBids(prisma)
    const packageOrders = await auditPackageOrders(engine)
    console.log(
      `${payments.length} bid-package payments not credited exactly once; ` +
        `${lateBids.length} bids after the end of their auction`,
    )
    for (const row of payments) {
      console.log(
        `  payment ${row.paymentId ?? '(none)'}, ledger ${row.reference ?? '(none)'}: ` +
          row.problem.replaceAll('_', ' '),
      )
    }
    if (onItsWay.length)
      console.log(
        `${onItsWay.length} bid-package payments credited (or their bids taken back) and still ` +
          `to be marked paid (refunded) by the provider's next callback or the reconciliation: ` +
          onItsWay.map((row) => row.paymentId).join(', '),
      )
    const owed = await bidsOwedAfterRefunds(prisma)
    if (owed.payments)
      console.log(
        `${owed.payments} refunded bid packages left ${owed.bids} bids their buyers had spent ` +
          `(for staff, on /admin/payments under Refunded; not a fault)`,
      )
    console.log(
      `${packageOrders.length} bid-package auction orders not credited exactly once ` +
        `(the order worker credits a paid one within 20 s while the site runs)`,
    )
    for (const row of packageOrders) {
      console.log(
        `  order ${row.orderId ?? '(none)'}, ledger ${row.reference ?? '(none)'}: ` +
          row.problem.replaceAll('_', ' '),
      )
    }
    for (const row of lateBids) {
      console.log(
        `  bid ${row.bidId} on ${row.auctionId} at ${row.at.toISOString()} for ${row.amount}: ` +
          `the auction ended ${row.endTime?.toISOString() ?? '(no end)'} at ${row.finalPrice ?? '(no price)'}`,
      )
    }
    const found =
      holds.prebids.length +
      holds.budgets.length +
      payments.length +
      packageOrders.length +
      lateBids.length
    if (audit.outboxLag > 0 && found)
      console.log('  (the outbox is not drained: some of these may be on their way)')
    if (found) process.exitCode = 3
    if (!values.repair || audit.mismatches.length === 0) {
      if (audit.mismatches.length) process.exitCode = 3
      return
    }
    const { repaired } = await rebuildBalances(engine)
    console.log(`${repaired.length} balances set to their ledger sum`)
  } finally {
    redis.disconnect()
    await prisma.$disconnect()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error))
  process.exitCode = 1
})
