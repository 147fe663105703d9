// A whole stack for scenarios outside the unit tests (fault tests, benchmarks): a database and
// Redis prefix of their own, production servers to start and kill (stack-apps.ts), people with
// signed session cookies, and auctions (stack-people.ts).
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { PrismaPg } from '@prisma/adapter-pg'
import { createRedis } from '../../engine/index.ts'
import { PrismaClient } from '../../prisma/generated/client.ts'
import { createDatabase, databaseUrl, dropDatabases } from './databases.ts'
import { removeKeys } from './redis-keys.ts'
import { root } from './stack-common.ts'

export * from './stack-common.ts'
export * from './stack-apps.ts'
export * from './stack-people.ts'

export type Scenario = {
  name: string
  /** The scenario's own database, migrated. */
  databaseUrl: string
  prefix: string
  prisma: PrismaClient
  /** Drops the database; the caller removes its Redis keys (or its whole Redis). */
  cleanup: () => Promise<void>
}

export async function createScenario(name: string, baseUrl: string): Promise<Scenario> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const dbName = `pa_faults_${name}_${runId}`
  const url = databaseUrl(baseUrl, dbName)
  await createDatabase(baseUrl, dbName)
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'pipe',
  })
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) })
  return {
    name,
    databaseUrl: url,
    prefix: `f${name.slice(0, 6)}${runId}`,
    prisma,
    cleanup: async () => {
      await prisma.$disconnect()
      await dropDatabases(baseUrl, dbName)
    },
  }
}

export async function deleteKeys(redisUrl: string, prefix: string) {
  const redis = createRedis(redisUrl)
  try {
    await removeKeys(redis, prefix)
  } finally {
    await redis.quit()
  }
}
