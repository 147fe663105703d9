import type { PrismaClient } from '../../../prisma/generated/client.ts'
import { paymentReference } from './reference.ts'

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
}

export async function auditPaymentCredits(prisma: PrismaClient): Promise<PaymentProblem[]> {
  const prefix = paymentReference('')
  const rows = await prisma.$queryRaw<
    Array<{
      paymentId: string | null
      reference: string | null
      status: string | null
      bids: number | null
      payer: string | null
      amount: number | null
      userId: string | null
    }>
  >`
    SELECT p.id AS "paymentId", l.reference, p.status::text AS status, p.bids,
      p."userId" AS payer, l.amount, l."userId"
    FROM (SELECT * FROM "Payment" WHERE purpose = 'package') p
    FULL JOIN (SELECT * FROM "BalanceLedger" WHERE reason = 'topup') l
      ON l.reference = ${prefix} || p.id
    WHERE CASE WHEN p.id IS NULL THEN true
      WHEN p.status NOT IN ('paid', 'refunded') THEN l.id IS NOT NULL
      ELSE l.id IS NULL OR l.amount <> p.bids OR l."userId" IS DISTINCT FROM p."userId" END
    ORDER BY p."createdAt", l."createdAt"`
  return rows.flatMap((row): PaymentProblem[] => {
    const { paymentId, reference } = row
    const problem = (name: PaymentProblem['problem']) => [{ paymentId, reference, problem: name }]
    if (paymentId === null) return problem('credit_without_payment')
    const paid = row.status === 'paid' || row.status === 'refunded'
    if (reference === null) return paid ? problem('paid_not_credited') : []
    if (!paid)
      return problem(row.status === 'pending' ? 'credited_awaiting_mark' : 'credited_not_paid')
    if (row.userId !== row.payer) return problem('credited_to_another_user')
    return problem('credited_wrong_amount')
  })
}

/** A payment the provider's retry or the reconciliation will still finish (see above). */
export function isOnItsWay(problem: PaymentProblem) {
  return problem.problem === 'credited_awaiting_mark'
}
