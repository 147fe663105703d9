import type { Engine } from './engine.ts'

// Bid-package auctions sell bids (docs/decisions/077-bid-package-orders-credit-bids.md). Their
// win order is paid as an item's is; once paid it becomes `delivered` (there is nothing to ship)
// and its bids are credited through the engine under one reference per order, so two payments
// of one order, a repeated callback or a retried request credit it once. Whatever marks an
// order paid (a payment, an admin taking cash) calls creditPackageOrder at once; the order
// worker calls creditOwedPackageOrders for any one still owed (Redis away, a crash in between,
// a credit lost with Redis before the outbox wrote it).

const REFERENCE_PREFIX = 'order:'

/** The ledger reference of a bid-package order's bids: one per order, never per payment. */
export function packageOrderReference(orderId: string) {
  return `${REFERENCE_PREFIX}${orderId}`
}

export type PackageCredit =
  /** Its bids were credited by this call. */
  | 'credited'
  /** Its bids had been credited before (a repeat): nothing changed. */
  | 'already'
  /** Not a paid bid-package order (an item, unpaid, expired, cancelled): nothing credited. */
  | 'not_due'
  /** The account is gone: nothing credited (an order holding money keeps its account). */
  | 'user_not_found'

/**
 * A paid bid-package order becomes `delivered`, then its bids are credited. Delivered first,
 * in one conditional step: a refund (which locks the order and refuses a delivered one) or an
 * admin's cancel either comes before it, and nothing is credited, or finds it delivered; a
 * credit that fails after it is owed and found by creditOwedPackageOrders.
 */
export async function creditPackageOrder(engine: Engine, orderId: string): Promise<PackageCredit> {
  const prisma = engine.prisma
  await prisma.order.updateMany({
    where: { id: orderId, status: 'paid', bids: { gt: 0 } },
    data: { status: 'delivered', deliveredAt: new Date() },
  })
  const order = await prisma.order.findUnique({
    where: { id: orderId },
    select: { userId: true, auctionId: true, status: true, bids: true },
  })
  if (!order || order.bids <= 0 || order.status !== 'delivered') return 'not_due'
  const reference = packageOrderReference(orderId)
  const credit = await engine.credit(
    order.userId,
    order.bids,
    'bid_package_win',
    reference,
    order.auctionId,
  )
  if (!credit.ok) return 'user_not_found'
  return credit.applied ? 'credited' : 'already'
}

const OWED_BATCH = 200

/**
 * Credits the paid or delivered bid-package orders whose bids the ledger does not hold, oldest
 * first; returns how many this call credited. One credited a moment ago and not yet written by
 * the outbox is asked again and answered as a repeat.
 */
export async function creditOwedPackageOrders(engine: Engine): Promise<number> {
  const owed = await engine.prisma.$queryRaw<Array<{ id: string }>>`
    SELECT o.id FROM "Order" o
     WHERE o.bids > 0 AND o.status IN ('paid', 'delivered')
       AND NOT EXISTS (
         SELECT 1 FROM "BalanceLedger" l WHERE l.reference = ${REFERENCE_PREFIX} || o.id)
     ORDER BY o."paidAt" ASC NULLS FIRST, o.id
     LIMIT ${OWED_BATCH}`
  let credited = 0
  for (const { id } of owed) {
    if ((await creditPackageOrder(engine, id)) === 'credited') credited += 1
  }
  return credited
}

export type PackageOrderProblem = {
  orderId: string | null
  /** The ledger row in question, when there is one. */
  reference: string | null
  problem:
    | 'paid_not_credited'
    | 'credited_wrong_amount'
    | 'credited_to_another_user'
    | 'credited_not_paid'
    | 'credit_without_order'
}

/**
 * Bid-package orders checked against the ledger (`npm run balances`): every paid one credited
 * exactly once, with its bids, to its owner, and no bids for an order that was not paid.
 * Conclusive once the outbox lag is 0 and the order worker has run since the last payment (it
 * credits one still owed within 20 s).
 */
export async function auditPackageOrders(engine: Engine): Promise<PackageOrderProblem[]> {
  const rows = await engine.prisma.$queryRaw<
    Array<{
      orderId: string | null
      reference: string | null
      status: string | null
      bids: number | null
      owner: string | null
      amount: number | null
      userId: string | null
    }>
  >`
    SELECT o.id AS "orderId", l.reference, o.status::text AS status, o.bids,
      o."userId" AS owner, l.amount, l."userId"
    FROM (SELECT * FROM "Order" WHERE bids > 0) o
    FULL JOIN (SELECT * FROM "BalanceLedger" WHERE reason = 'bid_package_win') l
      ON l.reference = ${REFERENCE_PREFIX} || o.id
    WHERE CASE WHEN o.id IS NULL THEN true
      WHEN o.status NOT IN ('paid', 'delivered') THEN l.id IS NOT NULL
      ELSE l.id IS NULL OR l.amount <> o.bids OR l."userId" IS DISTINCT FROM o."userId" END
    ORDER BY o."createdAt", l."createdAt"`
  return rows.map((row): PackageOrderProblem => {
    const { orderId, reference } = row
    const problem = (name: PackageOrderProblem['problem']) => ({
      orderId,
      reference,
      problem: name,
    })
    if (orderId === null) return problem('credit_without_order')
    if (reference === null) return problem('paid_not_credited')
    if (row.status !== 'paid' && row.status !== 'delivered') return problem('credited_not_paid')
    if (row.userId !== row.owner) return problem('credited_to_another_user')
    return problem('credited_wrong_amount')
  })
}
