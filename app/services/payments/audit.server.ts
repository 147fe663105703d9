import type { PrismaClient } from '../../../prisma/generated/client.ts'
import { paymentReference } from './reference.ts'

// Bid packages checked against the ledger (`npm run balances`, docs/operations.md): every paid
// package is credited exactly once, with its bids, to its payer, under its reference
// (paymentReference), and no bids come from a payment that was not paid. Conclusive once the
// outbox lag is 0: a credit is in Redis before its ledger row is written.

export type PaymentProblem = {
  paymentId: string | null
  /** The ledger row in question, when there is one. */
  reference: string | null
  problem:
    | 'paid_not_credited'
    | 'credited_wrong_amount'
    | 'credited_to_another_user'
    | 'credited_not_paid'
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
    if (!paid) return problem('credited_not_paid')
    if (row.userId !== row.payer) return problem('credited_to_another_user')
    return problem('credited_wrong_amount')
  })
}
