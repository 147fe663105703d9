import type { Redis } from 'ioredis'
import type { AlertChannelName, AlertKind } from '~/services/alerts/channel.server.ts'

// The alert queue's Redis keys and the one way onto it (docs/operations.md#the-alert-queue).
// Every key shares the engine's hash tag, so the scripts below run on one Redis primary.

export type AlertQueueKeys = ReturnType<typeof alertQueueKeys>

export function alertQueueKeys(prefix: string) {
  const base = `{${prefix}}:alerts:`
  return {
    /** The stream every instance reads as a consumer of GROUP. */
    stream: `${base}queue`,
    /** Jobs waiting for a retry or for quiet hours to end, scored by when they are due. */
    delayed: `${base}delayed`,
    /** Counters for the admin page: `sent:<channel>`, `failed:<channel>`, `dead:<channel>`. */
    stats: `${base}stats`,
    /**
     * Stream entry id -> handlings of it begun and not finished (a consumer died in it, or Redis
     * was out of reach): an entry begun too often is a dead letter, not handled again.
     */
    handling: `${base}handling`,
    /**
     * Set while the alert is in Redis (on the stream, being sent, or delayed), deleted when it is
     * done with: a job is never queued twice, and the recovery pass queues again only the pending
     * alerts whose marker Redis lost (app/services/alerts/recovery.server.ts).
     */
    once: (userId: string, channel: string, key: string) =>
      `${base}once:${userId}:${channel}:${key}`,
  }
}

export const ALERT_GROUP = 'alerts'
/**
 * A marker left behind by an entry nobody can finish (deleted by hand) lapses after this long;
 * the alert is then queued again by the recovery pass.
 */
export const ONCE_TTL_SECONDS = 8 * 24 * 3600

/** One alert for one person on one channel, as the queue carries it. */
export type AlertJob = {
  userId: string
  kind: AlertKind
  /** The alert's key (`won:{auctionId}`): sent at most once per person, key and channel. */
  key: string
  channel: AlertChannelName
  auctionId?: string
  orderId?: string
  /** Attempts made so far. */
  attempt: number
  queuedAt: number
  /** After this (ms) the alert means nothing any more (an outbid, a start): dropped. */
  expiresAt?: number
}

/** Queues the job unless it is in Redis already: one atomic step, so none is half-queued. */
const ENQUEUE = `
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  return redis.call('XADD', KEYS[2], '*', 'job', ARGV[2])
end
return false`

/** Moves due jobs from the delayed set onto the stream. */
const MOVE_DUE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, job in ipairs(due) do
  redis.call('ZREM', KEYS[1], job)
  redis.call('XADD', KEYS[2], '*', 'job', job)
end
return #due`

/** Queues the jobs Redis does not hold yet (in one round trip); the number queued. */
export async function queueJobs(redis: Redis, keys: AlertQueueKeys, jobs: readonly AlertJob[]) {
  if (jobs.length === 0) return 0
  const step = redis.pipeline()
  for (const job of jobs) {
    const marker = keys.once(job.userId, job.channel, job.key)
    step.eval(ENQUEUE, 2, marker, keys.stream, ONCE_TTL_SECONDS, JSON.stringify(job))
  }
  let queued = 0
  for (const [error, id] of (await step.exec()) ?? []) {
    if (error) throw error
    if (typeof id === 'string') queued++
  }
  return queued
}

export async function moveDue(redis: Redis, keys: AlertQueueKeys, now: number) {
  return Number(await redis.eval(MOVE_DUE, 2, keys.delayed, keys.stream, now))
}

/** The delayed set's member for a job: unique, so two equal jobs are both kept. */
export function delayedMember(job: AlertJob) {
  return JSON.stringify({ ...job, n: Math.random().toString(36).slice(2, 10) })
}

export function parseJob(text: string | undefined): AlertJob | null {
  if (!text) return null
  try {
    const job = JSON.parse(text) as AlertJob & { n?: string }
    delete job.n
    return typeof job.userId === 'string' && typeof job.key === 'string' ? job : null
  } catch {
    return null
  }
}
