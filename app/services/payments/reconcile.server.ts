import type { Engine } from '../../../engine/index.ts'
import { followLease } from '../../../engine/index.ts'
import { fallbackLanguage } from '~/i18n/config.ts'
import {
  duePendingPayments,
  expirePendingPayment,
  scheduleNextCheck,
} from '~/models/payment-admin.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { errorFields, log } from '~/services/logger.server.ts'
import { getProvider } from './index.server.ts'
import type { PaymentProvider } from './provider.server.ts'
import { applyReconciledEvent } from './apply-event.server.ts'

// Reconciliation (docs/payments.md#reconciliation): a callback can be lost (our server down
// past the provider's retries, the network), so pending payments are asked about at their
// provider, each on a back-off schedule of its own and never faster than the provider's pause
// between questions. A settled answer takes the webhook's own path (apply-event.server.ts), so
// a paid package is credited once whichever comes first; a payment its provider still does not
// know a day after checkout expires. Any other answer (an error, a refused signature, no answer)
// leaves it pending, to be asked again later.

export const RECONCILE_EVERY_MS = 60_000
/** A payer usually finishes within minutes; before that a pending payment is normal. */
export const RECONCILE_AFTER_MS = 10 * 60_000
/** Unknown to its provider this long after checkout: abandoned, cancelled as expired. */
export const EXPIRE_AFTER_MS = 24 * 60 * 60_000
/**
 * Waits after the first, second, … question before the next one: doubling from 10 minutes to
 * about 5 hours, so a payment is asked 8 times in its first day; then every 6 hours while its
 * provider neither settles it nor says it does not know it.
 */
export const RECONCILE_BACKOFF_MS = [10, 20, 40, 80, 160, 320, 360].map((m) => m * 60_000)
/** Questions per run at most: with a 1 s pause they end well within the minute. */
const BATCH = 30

export const nextCheckDelay = (asked: number) =>
  RECONCILE_BACKOFF_MS[Math.min(asked, RECONCILE_BACKOFF_MS.length) - 1]!

export type ReconcileResult = { checked: number; settled: number; expired: number; errors: number }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function reconcilePayments(
  engine: Engine,
  now = new Date(),
  {
    after = RECONCILE_AFTER_MS,
    expireAfter = EXPIRE_AFTER_MS,
    /** The pause between two questions to one provider; its own `statusPauseMs` by default. */
    pauseMs,
  }: { after?: number; expireAfter?: number; pauseMs?: number } = {},
): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, settled: 0, expired: 0, errors: 0 }
  const due = await duePendingPayments(now, new Date(now.getTime() - after), BATCH)
  if (due.length === 0) return result
  const t = await getFixedT(fallbackLanguage, ['payments', 'common'])
  const lastAsked = new Map<string, number>()
  const pace = async (provider: PaymentProvider) => {
    const pause = pauseMs ?? provider.statusPauseMs ?? 0
    const last = lastAsked.get(provider.name)
    if (last !== undefined && pause > 0) await sleep(Math.max(0, last + pause - Date.now()))
  }
  for (const payment of due) {
    const provider = getProvider(payment.provider)
    if (!provider) continue
    result.checked++
    const asked = payment.checkCount + 1
    try {
      await pace(provider)
      // The pause counts from the end of the previous answer.
      const report = await provider
        .getStatus({
          id: payment.id,
          providerPaymentId: payment.providerPaymentId,
          transactionId: payment.providerTxnId,
        })
        .finally(() => lastAsked.set(provider.name, Date.now()))
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
      log.warn('payment reconciliation failed: asked again later', {
        provider: provider.name,
        paymentId: payment.id,
        asked,
        ...errorFields(error),
      })
    }
    // Still pending (settling or expiring changes nothing for a payment no longer pending).
    await scheduleNextCheck(payment.id, asked, new Date(now.getTime() + nextCheckDelay(asked)))
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
    followLease(this.engine, this)
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
