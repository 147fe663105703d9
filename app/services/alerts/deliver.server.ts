import { getAlertChoices } from '~/models/alert-choices.server.ts'
import type { AlertChannel } from '~/services/alerts/channel.server.ts'
import { deliveryStatus, recordOutcome } from '~/services/alerts/deliveries.server.ts'
import { alertMessage } from '~/services/alerts/message.server.ts'
import type { AlertJob } from '~/services/alerts/queue-keys.server.ts'
import { quietUntil } from '~/utils/quiet-hours.ts'

// One attempt at one queued alert (docs/rules.md#alerts): what the queue does with it next.

export type RetryPolicy = {
  /** Attempts in all; after the last failed one the alert is a dead letter. */
  maxAttempts: number
  /** The wait after the first failed attempt, doubled after each next one up to maxDelayMs. */
  baseDelayMs: number
  maxDelayMs: number
}

export type Delivery =
  /** Finished with: sent, or nothing left to do (its row in Postgres says which). */
  | { done: 'sent' | 'duplicate' | 'off' | 'unreachable' | 'gone' | 'expired' | 'dropped' }
  | { done: 'dead'; error: string }
  /**
   * Try again at `later` (a failed attempt counts in `job.attempt`; quiet hours and the
   * channel's own pacing do not).
   */
  | { later: number; job: AlertJob; failed: boolean; error?: string }

export function backoffMs(policy: RetryPolicy, attempt: number) {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
}

/** One attempt: the job's row in Postgres is where it stands and records how it went. */
export async function deliver(
  job: AlertJob,
  channel: AlertChannel,
  policy: RetryPolicy,
  now: number,
): Promise<Delivery> {
  const [status, choices] = await Promise.all([deliveryStatus(job), getAlertChoices(job.userId)])
  // Postgres says what became of the alert: one done with is not sent again, even when Redis
  // forgot it and queued it again.
  if (status !== null && status !== 'pending') return { done: 'duplicate' }
  if (job.expiresAt !== undefined && job.expiresAt <= now) return finished(job, 'expired')
  if (choices.off.includes(`${job.kind}:${job.channel}`)) return finished(job, 'off')
  const quietEnd = quietUntil(now, choices)
  if (quietEnd !== null) {
    if (job.expiresAt !== undefined && job.expiresAt <= quietEnd) return finished(job, 'expired')
    return { later: quietEnd, job, failed: false }
  }
  const message = await alertMessage(job)
  if (!message) return finished(job, 'dropped')
  const tried = { ...job, attempt: job.attempt + 1 }
  let outcome
  try {
    outcome = await channel.send(job.userId, message)
  } catch (error) {
    outcome = {
      status: 'retry' as const,
      reason: error instanceof Error ? error.message : String(error),
    }
  }
  switch (outcome.status) {
    case 'sent':
      // Right after the provider took it: a redelivery of this entry finds it sent.
      await recordOutcome(tried, 'sent')
      return { done: 'sent' }
    case 'unreachable':
      return finished(job, 'unreachable')
    case 'paced':
      // Nothing reached the provider: the job goes again as it was, its attempts unspent.
      return { later: now + Math.max(1, outcome.afterMs), job, failed: false }
    case 'gone':
      return finished(tried, 'gone')
    case 'failed':
      // The provider refused this message for good: trying it again would fail the same way.
      await recordOutcome(tried, 'dead', outcome.reason)
      return { done: 'dead', error: outcome.reason }
    case 'retry':
      return failedAttempt(tried, outcome.reason, policy, now, outcome.retryAfterMs)
  }
}

async function finished(
  job: AlertJob,
  status: 'expired' | 'off' | 'dropped' | 'unreachable' | 'gone',
): Promise<Delivery> {
  await recordOutcome(job, status)
  return { done: status }
}

/**
 * A failed attempt, counted in `job.attempt`: tried again after the provider's wait or the
 * back-off, or a dead letter after the last attempt.
 */
export async function failedAttempt(
  job: AlertJob,
  reason: string,
  policy: RetryPolicy,
  now: number,
  retryAfterMs?: number,
): Promise<Delivery> {
  if (job.attempt >= policy.maxAttempts) {
    await recordOutcome(job, 'dead', reason)
    return { done: 'dead', error: reason }
  }
  const wait = retryAfterMs ?? backoffMs(policy, job.attempt)
  return { later: now + wait, job, failed: true, error: reason }
}
