import { getAlertChoices } from '~/models/alert-choices.server.ts'
import type { AlertChannel } from '~/services/alerts/channel.server.ts'
import { alertMessage } from '~/services/alerts/message.server.ts'
import type { AlertJob } from '~/services/alerts/queue-keys.server.ts'
import { quietUntil } from '~/services/alerts/quiet-hours.ts'
import { getPrisma } from '~/utils/db.server.ts'

// One attempt at one queued alert (docs/rules.md#alerts): what the queue does with it next.

export type RetryPolicy = {
  /** Attempts in all; after the last failed one the alert is a dead letter. */
  maxAttempts: number
  /** The wait after the first failed attempt, doubled after each next one up to maxDelayMs. */
  baseDelayMs: number
  maxDelayMs: number
}

export type Delivery =
  /** Finished with: sent, or nothing left to do (its outcome is recorded where it matters). */
  | { done: 'sent' | 'duplicate' | 'off' | 'unreachable' | 'gone' | 'expired' | 'dropped' }
  | { done: 'dead'; error: string }
  /** Try again at `at` (a failed attempt counts in `job.attempt`; quiet hours do not). */
  | { later: number; job: AlertJob; failed: boolean; error?: string }

export function backoffMs(policy: RetryPolicy, attempt: number) {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
}

async function record(job: AlertJob, status: string, error?: string) {
  const where = { userId: job.userId, channel: job.channel, key: job.key }
  const data = { kind: job.kind, status, attempts: Math.max(1, job.attempt), error: error ?? null }
  // The person may be gone meanwhile (their rows went with them): nothing to record then.
  await getPrisma()
    .alertDelivery.upsert({
      where: { userId_channel_key: where },
      create: { ...where, ...data },
      update: data,
    })
    .catch((failure: unknown) => {
      if ((failure as { code?: string } | null)?.code !== 'P2003') throw failure
    })
}

export async function deliver(
  job: AlertJob,
  channel: AlertChannel,
  policy: RetryPolicy,
  now: number,
): Promise<Delivery> {
  const prisma = getPrisma()
  const where = { userId: job.userId, channel: job.channel, key: job.key }
  const [before, choices] = await Promise.all([
    prisma.alertDelivery.findUnique({
      where: { userId_channel_key: where },
      select: { status: true },
    }),
    getAlertChoices(job.userId),
  ])
  // Postgres remembers what was sent even when Redis forgot the queued keys.
  if (before?.status === 'sent') return { done: 'duplicate' }
  if (job.expiresAt !== undefined && job.expiresAt <= now) {
    await record(job, 'expired')
    return { done: 'expired' }
  }
  if (choices.off.includes(`${job.kind}:${job.channel}`)) return { done: 'off' }
  const quietEnd = quietUntil(now, choices)
  if (quietEnd !== null) {
    if (job.expiresAt !== undefined && job.expiresAt <= quietEnd) {
      await record(job, 'expired')
      return { done: 'expired' }
    }
    return { later: quietEnd, job, failed: false }
  }
  const message = await alertMessage(job)
  if (!message) return { done: 'dropped' }
  const attempt = job.attempt + 1
  const tried = { ...job, attempt }
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
      await record(tried, 'sent')
      return { done: 'sent' }
    case 'unreachable':
      return { done: 'unreachable' }
    case 'gone':
      await record(tried, 'gone')
      return { done: 'gone' }
    case 'failed':
      // The provider refused this message for good: trying it again would fail the same way.
      await record(tried, 'dead', outcome.reason)
      return { done: 'dead', error: outcome.reason }
    case 'retry': {
      if (attempt >= policy.maxAttempts) {
        await record(tried, 'dead', outcome.reason)
        return { done: 'dead', error: outcome.reason }
      }
      const wait = outcome.retryAfterMs ?? backoffMs(policy, attempt)
      return { later: now + wait, job: tried, failed: true, error: outcome.reason }
    }
  }
}
