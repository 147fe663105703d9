import { expect, test } from 'vitest'
import { createUser } from '../../engine/test-support.ts'
import { Engine } from '../../engine/index.ts'
import { editUser } from '~/models/admin-users.server.ts'
import { updateProfile } from '~/models/account.server.ts'
import { getRedis } from '~/utils/redis.server.ts'
import {
  forgetSessions,
  getOptionalUser,
  keptCookieHeaderBytes,
  sessionIdFromCookieHeader,
  optionalUserIdFromCookieHeader,
  sessionCookie,
} from '~/services/session.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import type { UserEditInput } from '~/validation/admin-users.ts'
import type { ProfileInput } from '~/validation/user.ts'

async function sessionFor(userId: string) {
  const id = `s-${Math.random().toString(36).slice(2)}`
  await getPrisma().session.create({
    data: { id, userId, expiresAt: new Date(Date.now() + 3_600_000) },
  })
  // The Cookie header a browser sends back: the Set-Cookie value without its attributes.
  const header = (await sessionCookie().serialize(id)).split(';')[0]!
  return { id, header }
}

test("a session's user id is found, and a forged cookie finds nobody", async () => {
  const user = await createUser(getPrisma())
  const { header } = await sessionFor(user.id)
  expect(await optionalUserIdFromCookieHeader(header)).toBe(user.id)
  expect(await optionalUserIdFromCookieHeader(header)).toBe(user.id)
  expect(await optionalUserIdFromCookieHeader(`${header.slice(0, -2)}xx`)).toBeNull()
  expect(await optionalUserIdFromCookieHeader(null)).toBeNull()
})

test('an ended session stays ended even if its row is read again before it is deleted', async () => {
  const user = await createUser(getPrisma())
  const { id, header } = await sessionFor(user.id)
  expect(await optionalUserIdFromCookieHeader(header)).toBe(user.id)
  // Logout deletes the row, then forgets the session; a request that read the row just before
  // the delete must not bring it back. Here the row is still there when it is forgotten.
  await forgetSessions([id])
  expect(await optionalUserIdFromCookieHeader(header)).toBeNull()
  await getPrisma().session.delete({ where: { id } })
  expect(await optionalUserIdFromCookieHeader(header)).toBeNull()
})

test("a request's user is the session's, read once per request; an ended or expired session has none", async () => {
  const user = await createUser(getPrisma())
  const { id, header } = await sessionFor(user.id)
  const request = () => new Request('http://localhost/', { headers: { Cookie: header } })
  const first = request()
  const found = await getOptionalUser(first)
  expect(found).toMatchObject({ id: user.id, username: user.username, role: 'user' })
  // The root's loader and the page's get the same answer for one request.
  expect(getOptionalUser(first)).toBe(getOptionalUser(first))
  expect(await getOptionalUser(new Request('http://localhost/'))).toBeNull()
  // Each loader of a page has a request object of its own: asked at the same time, they share
  // one read of the row; asked afterwards, the row is read again.
  const [root, page] = await Promise.all([getOptionalUser(request()), getOptionalUser(request())])
  expect(root).toEqual(found)
  expect(page).toBe(root)
  const afterwards = await getOptionalUser(request())
  expect(afterwards).toEqual(found)
  expect(afterwards).not.toBe(root)

  await forgetSessions([id])
  expect(await getOptionalUser(request())).toBeNull()

  const expiring = await getPrisma().session.create({
    data: {
      id: `s-${Math.random().toString(36).slice(2)}`,
      userId: user.id,
      // Long enough for a busy machine to read it once before it ends.
      expiresAt: new Date(Date.now() + 3_000),
    },
  })
  const expiringHeader = (await sessionCookie().serialize(expiring.id)).split(';')[0]!
  const later = () => new Request('http://localhost/', { headers: { Cookie: expiringHeader } })
  expect((await getOptionalUser(later()))?.id).toBe(user.id)
  await new Promise((resolve) =>
    setTimeout(resolve, expiring.expiresAt.getTime() + 100 - Date.now()),
  )
  expect(await getOptionalUser(later())).toBeNull()
})

test("a change to a user's row shows on their next page", async () => {
  const prisma = getPrisma()
  const user = await createUser(prisma)
  const { header } = await sessionFor(user.id)
  const request = () => new Request('http://localhost/', { headers: { Cookie: header } })
  expect((await getOptionalUser(request()))?.firstName).toBeNull()
  await prisma.user.update({ where: { id: user.id }, data: { firstName: 'Айбек' } })
  expect((await getOptionalUser(request()))?.firstName).toBe('Айбек')
})

test('a profile change and an admin edit are seen on the next page at once', async () => {
  const prisma = getPrisma()
  const user = await createUser(prisma)
  const { header } = await sessionFor(user.id)
  const request = () => new Request('http://localhost/', { headers: { Cookie: header } })
  expect((await getOptionalUser(request()))?.role).toBe('user')
  const profile: ProfileInput = {
    firstName: 'Нурлан',
    lastName: 'Асанов',
    email: `${user.username}@changed.kg`,
    phone: null,
    dateOfBirth: null,
    gender: null,
  }
  await updateProfile(user.id, profile)
  expect(await getOptionalUser(request())).toMatchObject({
    firstName: 'Нурлан',
    email: `${user.username}@changed.kg`,
  })
  const engine = new Engine({ redis: getRedis(), prisma, prefix: getEnv().REDIS_PREFIX })
  const edit: UserEditInput = { role: 'admin' }
  await editUser(engine, 'an-admin', user.id, edit)
  expect((await getOptionalUser(request()))?.role).toBe('admin')
})

test('the Cookie headers kept with their session ids are bounded by bytes, however many and long', async () => {
  const user = await createUser(getPrisma())
  const { id, header } = await sessionFor(user.id)
  // 6,000 different headers of 4 KiB (24 MiB), as a flood of made-up cookies would send.
  const filler = 'x'.repeat(4 * 1024 - 40)
  for (let n = 0; n < 6_000; n++) {
    expect(await sessionIdFromCookieHeader(`other=${n}; pad=${filler}`)).toBeNull()
  }
  expect(keptCookieHeaderBytes()).toBeLessThanOrEqual(16 * 1024 * 1024)
  expect(keptCookieHeaderBytes()).toBeGreaterThan(8 * 1024 * 1024)
  // A header longer than any of ours is checked every time and never kept.
  const before = keptCookieHeaderBytes()
  const long = `${header}; pad=${'y'.repeat(64 * 1024)}`
  expect(await sessionIdFromCookieHeader(long)).toBe(id)
  expect(keptCookieHeaderBytes()).toBe(before)
  // A session's own header still finds it after the flood.
  expect(await sessionIdFromCookieHeader(header)).toBe(id)
}, 60_000)
