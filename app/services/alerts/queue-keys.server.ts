import type { Redis } from 'ioredis'
import type { AlertChannelName, AlertKind } from '~/models/alert-kinds.ts'

// The alert queue's Redis keys and the one way onto it (docs/operations.md#the-alert-queue).
// Every key shares the engine's hash tag, so the scripts below run on one Redis primary. Each
// channel has a lane of its own (a stream, a delayed set, the handlings begun), so a slow
// provider holds up only its own channel's alerts (docs/decisions/076-alerts-a-person-can-trust.md).

export type AlertQueueKeys = ReturnType<typeof alertQueueKeys>
export type LaneKeys = ReturnType<AlertQueueKeys['lane']>

export function alertQueueKeys(prefix: string) {
  const base = `{${prefix}}:alerts:`
  return {
    /** One channel's lane. */
    lane: (channel: AlertChannelName) => ({
      /** The stream every instance reads as a consumer of GROUP. */
      stream: `${base}queue:${channel}`,
      /** Jobs waiting for a retry, the channel's pacing or quiet hours, scored by when due. */
      delayed: `${base}delayed:${channel}`,
      /**
       * Stream entry id -> handlings of it begun and not finished (a consumer died in it, or
       * Redis was out of reach): an entry begun too often is a dead letter, not handled again.
       */
      handling: `${base}handling:${channel}`,
    }),
    /**
     * The one stream, delayed set and handlings hash every channel shared before the lanes:
     * what they still hold is moved to the lanes when a queue starts (`moveLegacyJobs`).
     */
    legacy: { stream: `${base}queue`, delayed: `${base}delayed`, handling: `${base}handling` },
    /** Counters for the admin page: `sent:<channel>`, `failed:<channel>`, `dead:<channel>`. */
    stats: `${base}stats`,
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
    const { stream } = keys.lane(job.channel)
    step.eval(ENQUEUE, 2, marker, stream, ONCE_TTL_SECONDS, JSON.stringify(job))
  }
  let queued = 0
  for (const [error, id] of (await step.exec()) ?? []) {
    if (error) throw error
    if (typeof id === 'string') queued++
  }
  return queued
}

export async function moveDue(redis: Redis, lane: LaneKeys, now: number) {
  return Number(await redis.eval(MOVE_DUE, 2, lane.delayed, lane.stream, now))
}

/**
 * Moves what the shared stream and delayed set of before the lanes still hold onto each job's
 * lane (entries being sent then are sent again unless Postgres already says they were), and
 * deletes them. KEYS: the legacy stream, delayed set and handlings, then each lane's stream and
 * delayed set in the order of ARGV's channel names.
 */
const MOVE_LEGACY = `
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
local lanes = {}
for i, channel in ipairs(ARGV) do lanes[channel] = { KEYS[2 + 2 * i], KEYS[3 + 2 * i] } end
local function laneOf(job)
  local ok, decoded = pcall(cjson.decode, job)
  if ok and type(decoded) == 'table' then return lanes[decoded.channel] end
  return nil
end
local moved = 0
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '-', '+')) do
  local fields = entry[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'job' then
      local lane = laneOf(fields[i + 1])
      if lane then
        redis.call('XADD', lane[1], '*', 'job', fields[i + 1])
        moved = moved + 1
      end
    end
  end
end
local delayed = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = 1, #delayed, 2 do
  local lane = laneOf(delayed[i])
  if lane then
    redis.call('ZADD', lane[2], delayed[i + 1], delayed[i])
    moved = moved + 1
  end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return moved`

/** The jobs left on the shared stream of before the lanes, moved to their lanes; how many. */
export async function moveLegacyJobs(
  redis: Redis,
  keys: AlertQueueKeys,
  channels: readonly AlertChannelName[],
) {
  const lanes = channels.flatMap((channel) => {
    const lane = keys.lane(channel)
    return [lane.stream, lane.delayed]
  })
  const { stream, delayed, handling } = keys.legacy
  const args = [stream, delayed, handling, ...lanes, ...channels]
  return Number(await redis.eval(MOVE_LEGACY, 3 + lanes.length, ...args))
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
