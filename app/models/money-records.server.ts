import { DomainError } from '~/utils/domain-error.ts'
import type { Prisma, PrismaClient } from '~/utils/db.server.ts'

// What an admin's delete may not take away (docs/decisions/029-nothing-paid-disappears.md):
// an auction or an account with money on its orders stays. The page actions and /api/admin
// both delete through app/models/admin-auctions.server.ts and admin-users.server.ts, which
// ask here.

type Db = PrismaClient | Prisma.TransactionClient

/**
 * An order that stands for money or goods: paid, shipped or delivered, or with any payment
 * record at all (pending, paid or not). The database refuses to delete an order with a payment
 * (prisma/schema/payments.prisma), whatever the app checks.
 */
const holdsMoney = {
  OR: [{ status: { in: ['paid', 'shipped', 'delivered'] } }, { payments: { some: {} } }],
} satisfies Prisma.OrderWhereInput

/** Whether an error is Postgres refusing a delete because rows still point at the row. */
function isRestricted(error: unknown) {
  return (error as { code?: string } | null)?.code === 'P2003'
}

/** Refuses (409) to delete an auction whose orders hold money. */
export async function assertAuctionDeletable(db: Db, auctionId: string) {
  const held = await db.order.count({ where: { auctionId, ...holdsMoney } })
  if (held > 0) throw new DomainError(409, 'errors.auctionHasPayments')
}

/**
 * Refuses (409) to delete an account whose orders hold money, or with a payment still pending
 * (its outcome would have no account to land on). Its settled bid-package payments stay
 * without a name, as its ledger rows do.
 */
export async function assertUserDeletable(db: Db, userId: string) {
  const [held, pending] = await Promise.all([
    db.order.count({ where: { userId, ...holdsMoney } }),
    db.payment.count({ where: { userId, status: 'pending' } }),
  ])
  if (held + pending > 0) throw new DomainError(409, 'errors.userHasPayments')
}

/**
 * Deletes the orders that hold no money (unpaid, expired, cancelled without a payment) of an
 * auction or a user being deleted, then runs `remove`. A payment that arrived since the check
 * makes Postgres refuse, and the delete is refused with the same message.
 */
export async function deleteWithUnpaidOrders(
  db: Db,
  where: { auctionId: string } | { userId: string },
  key: 'errors.auctionHasPayments' | 'errors.userHasPayments',
  remove: () => Promise<unknown>,
) {
  try {
    await db.order.deleteMany({ where: { ...where, NOT: holdsMoney } })
    const left = await db.order.count({ where })
    if (left > 0) throw new DomainError(409, key)
    await remove()
  } catch (error) {
    if (isRestricted(error)) throw new DomainError(409, key)
    throw error
  }
}
