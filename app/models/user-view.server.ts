import type { Engine } from '../../engine/index.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The user as the JSON API and the profile page show it (docs/rules.md#shapes).

export const userViewSelect = {
  id: true,
  username: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  dateOfBirth: true,
  gender: true,
  bidBalance: true,
  role: true,
  totalBids: true,
  wonAuctions: true,
  totalSpent: true,
  createdAt: true,
} as const

export type UserView = {
  id: string
  username: string
  firstName: string | null
  lastName: string | null
  email: string
  phone: string | null
  dateOfBirth: string | null
  gender: 'male' | 'female' | 'other' | null
  bidBalance: number
  role: 'user' | 'admin'
  totalBids: number
  wonAuctions: number
  totalSpent: number
  createdAt: string
}

/** The user with the bid balance from Redis (Postgres may trail it by the outbox). */
export async function getUserView(engine: Engine, userId: string): Promise<UserView | null> {
  const row = await getPrisma().user.findUnique({ where: { id: userId }, select: userViewSelect })
  if (!row) return null
  const balance = await engine.getBalance(userId)
  return {
    ...row,
    bidBalance: balance ?? row.bidBalance,
    dateOfBirth: row.dateOfBirth ? row.dateOfBirth.toISOString().slice(0, 10) : null,
    createdAt: row.createdAt.toISOString(),
  }
}
