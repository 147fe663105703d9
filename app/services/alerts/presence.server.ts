import type { Redis } from 'ioredis'

// Who has an auction's own page open, across instances (docs/rules.md#alerts: no outbid alert
// while the person's page is open on the auction). Each socket of the page is a member of the
// person's set for the auction, scored by when it lapses: the instance holding the socket
// renews it while the socket stays, so a crashed instance's sockets lapse by themselves.

export const PRESENCE_TTL_MS = 90_000

const presenceKey = (prefix: string, auctionId: string, userId: string) =>
  `{${prefix}}:alerts:here:${auctionId}:${userId}`

export async function markPresent(
  redis: Redis,
  prefix: string,
  visits: ReadonlyArray<{ socketId: string; userId: string; auctionId: string }>,
  now = Date.now(),
) {
  if (visits.length === 0) return
  const step = redis.multi()
  for (const { socketId, userId, auctionId } of visits) {
    const key = presenceKey(prefix, auctionId, userId)
    step.zadd(key, now + PRESENCE_TTL_MS, socketId).pexpire(key, PRESENCE_TTL_MS)
  }
  await step.exec()
}

export async function markAbsent(
  redis: Redis,
  prefix: string,
  visit: { socketId: string; userId: string; auctionId: string },
) {
  await redis.zrem(presenceKey(prefix, visit.auctionId, visit.userId), visit.socketId)
}

/** Whether the person has the auction's page open now (on any instance). */
export async function isPresent(
  redis: Redis,
  prefix: string,
  userId: string,
  auctionId: string,
  now = Date.now(),
) {
  return (await redis.zcount(presenceKey(prefix, auctionId, userId), now, '+inf')) > 0
}
