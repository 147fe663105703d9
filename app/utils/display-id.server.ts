import type { PrismaClient } from './db.server.ts'

// Lot numbers come from the Postgres sequence "auction_display_number" (see its migration).

/** The next free lot number. */
export async function nextDisplayNumber(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRaw<Array<{ n: number }>>`
    SELECT nextval('"auction_display_number"')::INTEGER AS n`
  return row!.n
}

/** Moves the sequence past every lot number in use (after rows were written with fixed ids). */
export async function syncDisplayNumbers(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRaw`
    SELECT setval('"auction_display_number"',
      GREATEST(1, COALESCE((SELECT MAX(substring("displayId" from 4)::INTEGER)
        FROM "Auction" WHERE "displayId" ~ '^PA-[0-9]{6,9}$'), 0)),
      EXISTS (SELECT 1 FROM "Auction" WHERE "displayId" ~ '^PA-[0-9]{6,9}$'))`
}
