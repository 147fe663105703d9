import { Prisma, type PrismaClient } from '../../../prisma/generated/client.ts'
import { paymentReference, refundReference } from './reference.ts'

// Bid packages checked against the ledger (`npm run balances`, docs/operations.md): every paid
// package is credited exactly once, with its bids, to its payer, under its reference
// (paymentReference), and no bids come from a payment that was not paid. Conclusive once the
// outbox lag is 0: a credit is in Redis before its ledger row is written.
//
// A payment still `pending` with its credit in the ledger is on its way, not wrong: bids are
// credited before the row is marked paid (apply-event.server.ts), and when marking fails (Postgres
// away) the provider's next callback or the reconciliation marks it. It is reported as
// `credited_awaiting_mark`, which `npm run balances` lists without failing; one that stays
// after the provider's retries and a reconciliation run is a fault.
//
// A credited package whose payment the provider refunded (provider-refund.server.ts), or a paid
// bid-package auction's order whose payment it refunded, took its bids back once, under
// refundReference: the bids taken back (its ledger row, 0 or less) and those the balance no
// longer held (`bidsOwed`, for staff) make up the bids it credited. A take-back written while
// its payment is still `paid` is on its way the same way (`taken_back_awaiting_mark`: the
// reconciliation's next question marks it).

export type PaymentProblem = {
  paymentId: string | null
  /** The ledger row in question, when there is one. */
  reference: string | null
  problem:
    | 'paid_not_credited'
    | 'credited_wrong_amount'
    | 'credited_to_another_user'
    | 'credited_not_paid'
    | 'credited_awaiting_mark'
    | 'credit_without_payment'
    | 'refund_not_taken_back'
    | 'refund_taken_back_wrong'
    | 'taken_back_awaiting_mark'
    | 'taken_back_not_refunded'
}

export async function auditPaymentCredits(prisma: PrismaClient): Promise<PaymentProblem[]> {
  const prefix = paymentReference('')
  // Its bids were credited: paid, or refunded after it was paid (a package held, then refunded
  // by staff, never was).
  const credited = Prisma.sql`(p.status = 'paid' OR (p.status = 'refunded' AND p."paidAt" IS NOT NULL))`
  const rows = await prisma.$queryRaw<
    Array<{
      paymentId: string | null
      reference: string | null
      status: string | null
      bids: number | null
      payer: string | null
      amount: number | null
      userId: string | null
      credited: boolean | null
    }>
  >`
    SELECT p.id AS "paymentId", l.reference, p.status::text AS status, p.bids,
      p."userId" AS payer, l.amount, l."userId", ${credited} AS credited
    FROM (SELECT * FROM "Payment" WHERE purpose = 'package') p
    FULL JOIN (SELECT * FROM "BalanceLedger" WHERE reason = 'topup') l
      ON l.reference = ${prefix} || p.id
    WHERE CASE WHEN p.id IS NULL THEN true
      WHEN NOT ${credited} THEN l.id IS NOT NULL
      ELSE l.id IS NULL OR l.amount <> p.bids OR l."userId" IS DISTINCT FROM p."userId" END
    ORDER BY p."createdAt", l."createdAt"`
  const credits = rows.flatMap((row): PaymentProblem[] => {
    const { paymentId, reference } = row
    const problem = (name: PaymentProblem['problem']) => [{ paymentId, reference, problem: name }]
    if (paymentId === null) return problem('credit_without_payment')
    const paid = row.credited === true
    if (reference === null) return paid ? problem('paid_not_credited') : []
    if (!paid)
      return problem(row.status === 'pending' ? 'credited_awaiting_mark' : 'credited_not_paid')
    if (row.userId !== row.payer) return problem('credited_to_another_user')
    return problem('credited_wrong_amount')
  })
  return [...credits, ...(await auditTakeBacks(prisma))]
}

/**
 * Refunded payments that credited bids (a paid package; a bid-package auction's order, whose
 * take-back is on its payment) against the bids taken back (see above).
 */
async function auditTakeBacks(prisma: PrismaClient): Promise<PaymentProblem[]> {
  const rows = await prisma.payment.findMany({
    where: {
      status: 'refunded',
      OR: [
        { purpose: 'package', paidAt: { not: null } },
        { purpose: 'order', bidsTakenBack: { not: null } },
      ],
    },
    select: {
      id: true,
      purpose: true,
      bids: true,
      bidsTakenBack: true,
      bidsOwed: true,
      order: { select: { bids: true } },
    },
  })
  const refunded = rows.map((row) => ({
    ...row,
    bids: row.purpose === 'package' ? row.bids : (row.order?.bids ?? 0),
  }))
  const takeBacks = await prisma.balanceLedger.findMany({
    where: { reason: 'payment_refund' },
    select: { reference: true, amount: true },
  })
  const taken = new Map(takeBacks.map((row) => [row.reference, 0 - row.amount]))
  const problems: PaymentProblem[] = []
  const seen = new Set<string>()
  for (const payment of refunded) {
    const reference = refundReference(payment.id)
    seen.add(reference)
    const took = taken.get(reference)
    // Nothing to take back: the bids went with a deleted account.
    if (took === undefined && payment.bidsTakenBack === 0 && payment.bidsOwed === 0) continue
    if (took === undefined) {
      problems.push({ paymentId: payment.id, reference: null, problem: 'refund_not_taken_back' })
    } else if (took !== payment.bidsTakenBack || took + (payment.bidsOwed ?? 0) !== payment.bids) {
      problems.push({ paymentId: payment.id, reference, problem: 'refund_taken_back_wrong' })
    }
  }
  const orphans = takeBacks.filter((row) => !seen.has(row.reference))
  if (orphans.length === 0) return problems
  const prefix = refundReference('')
  const ids = orphans.map((row) => row.reference.slice(prefix.length))
  const stillPaid = new Set(
    (
      await prisma.payment.findMany({
        where: { id: { in: ids }, status: 'paid' },
        select: { id: true },
      })
    ).map((row) => row.id),
  )
  for (const row of orphans) {
    const paymentId = row.reference.startsWith(prefix) ? row.reference.slice(prefix.length) : null
    const onItsWay = paymentId !== null && stillPaid.has(paymentId)
    problems.push({
      paymentId: onItsWay ? paymentId : null,
      reference: row.reference,
      problem: onItsWay ? 'taken_back_awaiting_mark' : 'taken_back_not_refunded',
    })
  }
  return problems
}

/**
 * Refunded bid packages whose bids their buyers had spent before the take-back: how many, and
 * the bids left with them (`bidsOwed`), which staff see on /admin/payments. Not a fault.
 */
export async function bidsOwedAfterRefunds(prisma: PrismaClient) {
  const owed = await prisma.payment.aggregate({
    where: { status: 'refunded', bidsOwed: { gt: 0 } },
    _count: true,
    _sum: { bidsOwed: true },
  })
  return { payments: owed._count, bids: owed._sum.bidsOwed ?? 0 }
}

/** A payment the provider's retry or the reconciliation will still finish (see above). */
export function isOnItsWay(problem: PaymentProblem) {
  return (
    problem.problem === 'credited_awaiting_mark' || problem.problem === 'taken_back_awaiting_mark'
  )
}
