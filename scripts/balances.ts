// npm run balances [-- --repair]
// Checks every user's bid balance against the ledger (Postgres balance and Redis hot copy);
// with --repair, sets each wrong balance to its ledger sum. See docs/operations.md.
import { parseArgs } from 'node:util'
import { auditBalances, rebuildBalances } from '../engine/balances.ts'
import { Engine } from '../engine/engine.ts'
import { createPrismaClient } from '../app/utils/db.server.ts'
import { parseEnv } from '../app/utils/env.server.ts'
import { createRedis, redisTarget } from '../engine/redis.ts'

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
