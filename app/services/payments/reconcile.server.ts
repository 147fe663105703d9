import type { Engine } from '../../../engine/index.ts'
import { followLease } from '../../../engine/index.ts'
import { fallbackLanguage } from '~/i18n/config.ts'
import {
  duePendingPayments,
  dueRefundChecks,
  expirePendingPayment,
  scheduleNextCheck,
  scheduleRefundCheck,
} from '~/models/payment-admin.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { errorFields, log } from '~/utils/logger.server.ts'
import { getProvider } from './index.server.ts'
import type { PaymentProvider, PaymentStatusReport, StatusQuery } from './provider.server.ts'
import { applyReconciledEvent } from './apply-event.server.ts'

// Reconciliation (docs/payments.md#reconciliation): a callback can be lost (our server down
// past the provider's retries, the network), so pending payments are asked about at their
// provider, each on a back-off schedule of its own and never faster than the provider's pause
// between questions. A settled answer takes the webhook's own path (apply-event.server.ts), so
// a paid package is credited once whichever comes first, and money given back is never
// credited; a payment its provider still does not know a day after checkout expires. Any other
// answer (an error, a refused signature, no answer) leaves it pending, to be asked again later.
// A paid payment is asked again a few times after it was paid whether its provider refunded it
// since (a refund in the provider's console, a chargeback): a refunded bid package takes its
// bids back (provider-refund.server.ts).

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
/** When a paid payment is asked whether it was refunded: an hour, a day, a week, 30 days after. */
export const REFUND_CHECKS_AFTER_MS = [1, 24, 7 * 24, 30 * 24].map((h) => h * 60 * 60_000)
/**
 * Questions per run at most, pending payments first: with Freedom Pay's 2 s pause they end
 * within the minute.
 */
const BATCH = 25

export const nextCheckDelay = (asked: number) =>
  RECONCILE_BACKOFF_MS[Math.min(asked, RECONCILE_BACKOFF_MS.length) - 1]!

export type ReconcileResult = {
  checked: number
  settled: number
  expired: number
  errors: number
  /** Paid payments asked whether they were refunded, and those found refunded. */
  refundChecks: number
  refunded: number
}

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
  const result: ReconcileResult = {
    checked: 0,
    settled: 0,
    expired: 0,
    errors: 0,
    refundChecks: 0,
    refunded: 0,
  }
  const due = await duePendingPayments(now, new Date(now.getTime() - after), BATCH)
  const last = REFUND_CHECKS_AFTER_MS.at(-1)!
  const watched = await dueRefundChecks(
    now,
    {
      paidFrom: new Date(now.getTime() - last),
      paidBefore: new Date(now.getTime() - REFUND_CHECKS_AFTER_MS[0]!),
      checks: REFUND_CHECKS_AFTER_MS.length,
    },
    BATCH - due.length,
  )
  if (due.length === 0 && watched.length === 0) return result
  const t = await getFixedT(fallbackLanguage, ['payments', 'common'])
  const lastAsked = new Map<string, number>()
  /** The provider's status of a payment, never sooner than its pause after the last answer. */
  const ask = async (provider: PaymentProvider, query: StatusQuery) => {
    const pause = pauseMs ?? provider.statusPauseMs ?? 0
    const previous = lastAsked.get(provider.name)
    if (previous !== undefined && pause > 0) await sleep(Math.max(0, previous + pause - Date.now()))
    // The pause counts from the end of the previous answer.
    return provider.getStatus(query).finally(() => lastAsked.set(provider.name, Date.now()))
  }
  const settle = async (provider: PaymentProvider, report: PaymentStatusReport) => {
    if (!report.known || report.status !== 'settled') return null
    const answer = await applyReconciledEvent(provider.name, report.event, engine, t)
    log.info('payment reconciled', {
      provider: provider.name,
      paymentId: report.event.paymentId,
      status: report.event.status,
      answer: answer.status,
    })
    return report.event.status
  }

  for (const payment of due) {
    const provider = getProvider(payment.provider)
    if (!provider) continue
    result.checked++
    const asked = payment.checkCount + 1
    try {
      const report = await ask(provider, {
        id: payment.id,
        providerPaymentId: payment.providerPaymentId,
        transactionId: payment.providerTxnId,
      })
      if (await settle(provider, report)) result.settled++
      else if (!report.known && now.getTime() - payment.createdAt.getTime() > expireAfter) {
        if (await expirePendingPayment(payment.id)) result.expired++
      }
    } catch (error) {
      result.errors++
      const late = now.getTime() - payment.createdAt.getTime() > expireAfter
      log[late ? 'error' : 'warn'](
        late
          ? 'payment still not settled a day after checkout: asked again later; see the provider’s console'
          : 'payment reconciliation failed: asked again later',
        { provider: provider.name, paymentId: payment.id, asked, ...errorFields(error) },
      )
    }
    // Still pending (settling or expiring changes nothing for a payment no longer pending).
    await scheduleNextCheck(payment.id, asked, new Date(now.getTime() + nextCheckDelay(asked)))
  }

  for (const payment of watched) {
    const provider = getProvider(payment.provider)
    if (!provider) continue
    result.refundChecks++
    // The steps of the schedule this question covers: the next ones already past too (a payment
    // paid before a pause of the reconciler is asked once for them).
    let asked = payment.refundChecks + 1
    const paidAt = payment.paidAt!.getTime()
    const stepAt = (step: number) => paidAt + REFUND_CHECKS_AFTER_MS[step]!
    while (asked < REFUND_CHECKS_AFTER_MS.length && stepAt(asked) <= now.getTime()) asked++
    let next: Date | null = null
    try {
      const report = await ask(provider, {
        id: payment.id,
        providerPaymentId: payment.providerPaymentId,
        transactionId: payment.providerTxnId,
      })
      // Only money given back changes a paid payment; its other answers change nothing.
      if (report.known && report.status === 'settled' && report.event.status === 'refunded') {
        await settle(provider, report)
        result.refunded++
      }
      next = asked < REFUND_CHECKS_AFTER_MS.length ? new Date(stepAt(asked)) : null
    } catch (error) {
      // Asked again at the next run's first wait; this question does not count.
      result.errors++
      log.warn('refund check failed: asked again later', {
        provider: provider.name,
        paymentId: payment.id,
        ...errorFields(error),
      })
      await scheduleRefundCheck(
        payment.id,
        payment.refundChecks,
        new Date(now.getTime() + RECONCILE_BACKOFF_MS[0]!),
      )
      continue
    }
    // A payment refunded meanwhile is no longer paid: this changes nothing for it.
    await scheduleRefundCheck(payment.id, asked, next)
  }
  if (result.settled || result.expired || result.errors || result.refunded)
    log.info('payments reconciled', result)
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
