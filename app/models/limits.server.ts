import { limitColumns, limitFields, limitsOf, type Limits } from '../../engine/index.ts'
import { getPrisma } from '~/utils/db.server.ts'

// A person's limits as Postgres keeps them (docs/rules.md#limits-a-bidder-sets).

export async function readLimits(userId: string): Promise<Limits | null> {
  const row = await getPrisma().user.findUnique({ where: { id: userId }, select: limitFields })
  return row ? limitsOf(row) : null
}

/**
 * Writes `next` unless another change was written since `current` was read (its version moved
 * on): false then, and the caller reads again.
 */
export async function writeLimits(userId: string, current: Limits, next: Limits) {
  const { count } = await getPrisma().user.updateMany({
    where: { id: userId, limitsVersion: current.version },
    data: limitColumns(next),
  })
  return count === 1
}
