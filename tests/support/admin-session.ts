import { createUser } from '../../engine/test-support.ts'
import { sessionCookie } from '~/services/session.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// A signed-in admin for unit tests of admin routes: a new admin account and a session of its
// own, as the Cookie header a browser would send.

export async function adminCookie(): Promise<string> {
  const admin = await createUser(getPrisma())
  await getPrisma().user.update({ where: { id: admin.id }, data: { role: 'admin' } })
  const id = `s-${Math.random().toString(36).slice(2)}`
  await getPrisma().session.create({
    data: { id, userId: admin.id, expiresAt: new Date(Date.now() + 3_600_000) },
  })
  return (await sessionCookie().serialize(id)).split(';')[0]!
}
