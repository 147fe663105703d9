import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClient, type Prisma } from '../../prisma/generated/client.ts'

// The generated client (`npx prisma generate` -> prisma/generated) has no query engine binary:
// it runs on the `pg` driver through PrismaPg (docs/decisions/002-prisma-offline-js-engine.md).
export * from '../../prisma/generated/client.ts'

export type PrismaClientOptions = Omit<Prisma.PrismaClientOptions, 'adapter'>

/**
 * The longest a query waits for a connection of its pool (all busy, or Postgres slow to accept
 * one): then it fails as an outage (a 503 that says so, app/utils/logger.server.ts
 * `isUnavailable`) instead of holding its request for as long as the connection takes.
 */
/** A unique constraint refused the write (Prisma's P2002): someone else wrote that row first. */
export function isUniqueViolation(error: unknown) {
  return (error as { code?: string } | null)?.code === 'P2002'
}

export const POOL_WAIT_MS = 10_000

export function createPrismaClient(
  databaseUrl: string,
  options: PrismaClientOptions = {},
): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    connectionTimeoutMillis: POOL_WAIT_MS,
  })
  return new PrismaClient({ ...options, adapter })
}

// Kept on globalThis so the development server's module reloads reuse one pool.
const globalForPrisma = globalThis as typeof globalThis & { __prisma?: PrismaClient }

export function getPrisma(): PrismaClient {
  if (!globalForPrisma.__prisma) {
    const url = process.env.DATABASE_URL
    if (!url) throw new Error('DATABASE_URL is not set; it must point at the Postgres database')
    globalForPrisma.__prisma = createPrismaClient(url)
  }
  return globalForPrisma.__prisma
}
