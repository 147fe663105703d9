import type { Engine } from '../../engine/index.ts'
import { readRows } from '~/utils/sql.server.ts'

// The user as the JSON API and the profile page show it (docs/rules.md#shapes).

// One plain statement (app/utils/sql.server.ts): the profile and the API's sign-in read it.
const USER_VIEW_SQL = `SELECT id, username, "firstName", "lastName", email, phone,
    to_char("dateOfBirth", 'YYYY-MM-DD') AS "dateOfBirth", gender, "bidBalance", role,
    "totalBids", "wonAuctions", "totalSpent", "createdAt"
  FROM "User" WHERE id = $1`

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
  const [[row], balance] = await Promise.all([
    readRows<Omit<UserView, 'createdAt'> & { createdAt: Date }>('user-view', USER_VIEW_SQL, [
      userId,
    ]),
    engine.getBalance(userId),
  ])
  if (!row) return null
  return { ...row, bidBalance: balance ?? row.bidBalance, createdAt: row.createdAt.toISOString() }
}
