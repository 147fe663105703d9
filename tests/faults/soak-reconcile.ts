// The money soak test's (money-soak.faults.ts) reconciliation and what its purchases must have
// come to: each payment ended as the provider says, each refund's bids taken back or left on
// record for staff (docs/payments.md "Refunds Freedom Pay reports").
import type { PrismaClient } from '../../prisma/generated/client.ts'
import type { Engine } from '../../engine/index.ts'
import type { FreedomPayFake } from '../support/freedompay-fake.ts'
import { SESSION_SECRET, type Scenario } from './harness.ts'
import type { Delivery, SoakWorld } from './soak-operations.ts'

/** How a purchase's payment must end, by how it was delivered. */
const SETTLED_AS: Record<Delivery, string> = {
  once: 'paid',
  repeated: 'paid',
  lost: 'paid',
  reordered: 'paid',
  declined: 'failed',
  'lost-refunded': 'cancelled',
  'refunded-later': 'refunded',
}

/** The pause between status questions to the fake, which limits nothing (2 s at Freedom Pay). */
const STATUS_PAUSE_MS = 50

/** The settings the reconciler reads, as the soak's instances have them. */
export function reconcilerSettings(scenario: Scenario, redisUrl: string, fake: FreedomPayFake) {
  return {
    DATABASE_URL: scenario.databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: scenario.prefix,
    SESSION_SECRET,
    LOG_LEVEL: 'silent',
    PAYMENT_PROVIDER: 'freedompay',
    FREEDOMPAY_MERCHANT_ID: fake.merchantId,
    FREEDOMPAY_SECRET_KEY: fake.secretKey,
    FREEDOMPAY_API_URL: fake.url,
    FREEDOMPAY_TEST_MODE: '1',
  }
}

/**
 * The reconciler, the function the lease holder runs every minute, run here with its clock
 * moved past each wait of its schedule, until a run settles nothing more; with `refunds`, two
 * hours ahead, past the first refund check of every payment paid meanwhile, until a run asks
 * none.
 */
export async function reconcile(
  engine: Engine,
  settings: Record<string, string>,
  { refunds = false } = {},
) {
  Object.assign(process.env, settings)
  const { reconcilePayments, RECONCILE_BACKOFF_MS } =
    await import('../../app/services/payments/reconcile.server.ts')
  const total = { checked: 0, settled: 0, refundChecks: 0, refunded: 0 }
  const run = async (at: number) => {
    const result = await reconcilePayments(engine, new Date(at), { pauseMs: STATUS_PAUSE_MS })
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += result[key]
    return result
  }
  if (refunds) {
    const at = Date.now() + 2 * 60 * 60_000
    while ((await run(at)).refundChecks > 0);
    return total
  }
  let at = Date.now()
  for (const wait of RECONCILE_BACKOFF_MS) {
    at += wait + 60_000
    if ((await run(at)).settled === 0) break
  }
  return total
}

/**
 * The purchases whose payment did not end as the provider says, the refunds whose bids were
 * neither taken back nor left on record (taken back + owed = the package's bids), and the bids
 * the refunds left with their buyers.
 */
export async function purchasesSettled(prisma: PrismaClient, world: SoakWorld) {
  const rows = await prisma.payment.findMany({
    where: { providerPaymentId: { in: world.purchases.map((p) => p.payment.id) } },
    select: {
      providerPaymentId: true,
      status: true,
      bids: true,
      bidsTakenBack: true,
      bidsOwed: true,
    },
  })
  const rowOf = new Map(rows.map((r) => [r.providerPaymentId, r]))
  const unsettled = world.purchases.filter(
    (p) => rowOf.get(p.payment.id)?.status !== SETTLED_AS[p.delivery],
  )
  const refunds = world.purchases.filter((p) => p.delivery === 'refunded-later')
  const refundsWrong = refunds.filter((p) => {
    const row = rowOf.get(p.payment.id)
    return !row || (row.bidsTakenBack ?? -1) + (row.bidsOwed ?? -1) !== row.bids
  })
  const owed = refunds.reduce((sum, p) => sum + (rowOf.get(p.payment.id)?.bidsOwed ?? 0), 0)
  return { unsettled, refundsWrong, owed }
}
