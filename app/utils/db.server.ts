import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClient, type Prisma } from '../../prisma/generated/client.ts'

// The generated client (`npx prisma generate` -> prisma/generated) has no query engine binary:
// it runs on the `pg` driver through PrismaPg (docs/decisions/002-prisma-offline-js-engine.md).
export * from '../../prisma/generated/client.ts'

export type PrismaClientOptions = Omit<Prisma.PrismaClientOptions, 'adapter'>

export function createPrismaClient(
  databaseUrl: string,
  options: PrismaClientOptions = {},
): PrismaClient {
  return new PrismaClient({ ...options, adapter: new PrismaPg({ connectionString: databaseUrl }) })
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
