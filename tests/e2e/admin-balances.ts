import { call } from './api.ts'
import { e2eDatabase, outboxWritten } from './auctions.ts'

// What the tests of an admin's bid balance changes (api-admin-balances.e2e.ts) send and read.

/** The admin's PATCH of a user: its status and body. */
export async function patchUser(admin: string, id: string, body: unknown, lang?: string) {
  const { status, json } = await call(`/api/admin/users/${id}`, {
    method: 'PATCH',
    cookie: admin,
    body,
    lang,
  })
  return { status, json }
}

/** The id of the account signed in with `cookie`. */
export async function idOf(cookie: string) {
  return ((await call('/api/auth/me', { method: 'GET', cookie })).json.user as { id: string }).id
}

export const balanceOf = async (cookie: string) =>
  ((await call('/api/auth/me', { method: 'GET', cookie })).json.user as { bidBalance: number })
    .bidBalance

/** The user's ledger rows made by admins, once the outbox has written `count` of them. */
export async function adminLedger(userId: string, count: number) {
  const read = () =>
    e2eDatabase().balanceLedger.findMany({
      where: { userId, reason: { in: ['admin_adjust', 'admin_set'] } },
      orderBy: { createdAt: 'asc' },
      select: { amount: true, balanceAfter: true, reason: true, adminId: true, note: true },
    })
  const deadline = Date.now() + 10_000
  while ((await read()).length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  // A wrong extra row would be written by now too.
  await outboxWritten()
  return read()
}
