import type { ChainableCommander, Redis } from 'ioredis'
import type { Keys } from './keys.ts'

// What signed-in pages show of a user's row (name, email, role, wins) is kept in Redis, so that a
// page for a signed-in person reads Redis only. Every change to those columns forgets the copy
// and raises the row's version (`forgetUserRows`, after the change is committed); a copy read
// from Postgres is kept only if the version did not move while it was read (`keepUserRow`), so a
// read that overlapped a change cannot put the old row back.

/** How long a copy is kept without being read again. */
export const USER_ROW_MS = 5 * 60 * 1000
/** Versions outlive any copy. */
const VERSION_MS = 24 * 60 * 60 * 1000

const KEEP = `if (redis.call('GET', KEYS[1]) or '') == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
end
return 0`

/** A user's kept row, and the version to keep a fresh read under if there is none. */
export async function readUserRow(
  redis: Redis,
  keys: Keys,
  userId: string,
): Promise<{ row: string | null; version: string }> {
  const [row, version] = await redis.mget(keys.userRow(userId), keys.userRowVersion(userId))
  return { row: row ?? null, version: version ?? '' }
}

/** Keeps a row read from Postgres, unless it changed since `version` was read. */
export async function keepUserRow(
  redis: Redis,
  keys: Keys,
  userId: string,
  version: string,
  row: string,
): Promise<void> {
  await redis.eval(
    KEEP,
    2,
    keys.userRowVersion(userId),
    keys.userRow(userId),
    version,
    row,
    String(USER_ROW_MS),
  )
}

/** Forgets the kept rows of users whose row changed (call after the change is committed). */
export async function forgetUserRows(redis: Redis, keys: Keys, userIds: Iterable<string>) {
  const ids = [...userIds]
  if (ids.length > 0) await forgettingUserRows(redis.multi(), keys, ids).exec()
}

/** Adds the forgetting of these users' kept rows to a transaction. */
export function forgettingUserRows<T extends ChainableCommander>(
  transaction: T,
  keys: Keys,
  userIds: Iterable<string>,
): T {
  for (const id of new Set(userIds))
    transaction
      .incr(keys.userRowVersion(id))
      .pexpire(keys.userRowVersion(id), VERSION_MS)
      .del(keys.userRow(id))
  return transaction
}
