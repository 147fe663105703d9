import type { Engine } from '../../../engine/index.ts'
import { fallbackLanguage } from '~/i18n/config.ts'
import { expirePendingPayment, stalePendingPayments } from '~/models/payment-admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { errorFields, log } from '~/services/logger.server.ts'
import { getProvider } from './index.server.ts'
import { applyReconciledEvent } from './webhook.server.ts'

// Reconciliation (docs/payments.md#reconciliation): a callback can be lost (our server down,
// the network), so payments still pending after a while are asked about at their provider.
// A settled answer takes the webhook's own path (webhook.server.ts), so a paid package is
// credited once whichever comes first; a payment its provider never heard of expires.

export const RECONCILE_EVERY_MS = 60_000
/** A payer usually finishes within minutes; before that a pending payment is normal. */
export const RECONCILE_AFTER_MS = 10 * 60_000
/** Unknown to its provider this long after checkout: abandoned, cancelled as expired. */
export const EXPIRE_AFTER_MS = 24 * 60 * 60_000
const BATCH = 50

export type ReconcileResult = { checked: number; settled: number; expired: number; errors: number }

export async function reconcilePayments(
  engine: Engine,
  now = new Date(),
  { after = RECONCILE_AFTER_MS, expireAfter = EXPIRE_AFTER_MS } = {},
): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, settled: 0, expired: 0, errors: 0 }
  const stale = await stalePendingPayments(new Date(now.getTime() - after), BATCH)
  if (stale.length === 0) return result
  const t = await getFixedT(fallbackLanguage, ['payments', 'common'])
  for (const payment of stale) {
    const provider = getProvider(payment.provider)
    if (!provider) continue
    result.checked++
    try {
      const report = await provider.getStatus({
        id: payment.id,
        transactionId: payment.providerTxnId,
      })
      if (report.known && report.status === 'settled') {
        const answer = await applyReconciledEvent(provider.name, report.event, engine, t)
        result.settled++
        log.info('payment reconciled', {
          provider: provider.name,
          paymentId: payment.id,
          status: report.event.status,
          answer: answer.status,
        })
      } else if (!report.known && now.getTime() - payment.createdAt.getTime() > expireAfter) {
        if (await expirePendingPayment(payment.id)) result.expired++
      }
    } catch (error) {
      result.errors++
      log.warn('payment reconciliation failed', {
        provider: provider.name,
        paymentId: payment.id,
        ...errorFields(error),
      })
    }
  }
  if (result.settled || result.expired || result.errors) log.info('payments reconciled', result)
  return result
}

/** Runs reconcilePayments every minute while this instance holds the engine lease. */
export class PaymentReconciler {
  private interval: NodeJS.Timeout | undefined
  private busy = false

  constructor(private readonly engine: Engine) {}

  /** Follows the engine lease: only its holder reconciles (engine/lease.ts). */
  followLease() {
    this.engine.on('leader', ({ leader }: { leader: boolean }) =>
      leader ? this.start() : this.stop(),
    )
    return this
  }

  start() {
    if (this.interval) return
    this.interval = setInterval(() => void this.tick(), RECONCILE_EVERY_MS)
    this.interval.unref()
  }

  stop() {
    clearInterval(this.interval)
    this.interval = undefined
  }

  async tick() {
    if (this.busy) return
    this.busy = true
    try {
      await reconcilePayments(this.engine)
    } catch (error) {
      log.warn('payment reconciliation tick failed', errorFields(error))
    } finally {
      this.busy = false
    }
  }
}

/** Started by server.ts through app/entry.server.tsx: follows the engine lease. */
export function startPaymentReconciler(engine: Engine): { stop(): void } {
  return new PaymentReconciler(engine).followLease()
}
