import { expect, test } from 'vitest'
import { createUser } from '../../engine/test-support.ts'
import {
  loginView,
  requireAdmin,
  requireAnonymous,
  requireApiAdmin,
  requireApiUser,
  requireUser,
  withUser,
  withUserId,
} from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { sessionCookie } from '~/services/session.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The guards every route asks: pages go to /login and back (an admin page sends a user home),
// the JSON API answers 401/403 {"error"} in the caller's language, and a page or form that
// answers a visitor itself gets its own answer.

async function signedIn(role: 'user' | 'admin' = 'user') {
  const user = await createUser(getPrisma())
  if (role === 'admin') await getPrisma().user.update({ where: { id: user.id }, data: { role } })
  const id = `s-${Math.random().toString(36).slice(2)}`
  await getPrisma().session.create({
    data: { id, userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) },
  })
  const cookie = (await sessionCookie().serialize(id)).split(';')[0]!
  return { user, cookie }
}

const request = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, { headers })

/** What a guard threw (a Response), or null when it let the request go on. */
const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as Response,
  )

test('a page sends a visitor to log in and back to this address, or to the one it names', async () => {
  const away = await thrown(requireUser(request('/topup/order/7?x=1')))
  expect(away?.status).toBe(302)
  expect(away?.headers.get('Location')).toBe(
    `/login?redirectTo=${encodeURIComponent('/topup/order/7?x=1')}`,
  )
  const named = await thrown(requireUser(request('/profile?edit=1'), { redirectTo: '/profile' }))
  expect(named?.headers.get('Location')).toBe('/login?redirectTo=%2Fprofile')
  const { user, cookie } = await signedIn()
  expect(await requireUser(request('/profile', { Cookie: cookie }))).toMatchObject({ id: user.id })
})

test('an admin page sends a visitor to log in, a user home, and lets an admin in', async () => {
  const visitor = await thrown(requireAdmin(request('/admin/users')))
  expect(visitor?.headers.get('Location')).toBe('/login?redirectTo=%2Fadmin%2Fusers')
  const user = await signedIn()
  const home = await thrown(requireAdmin(request('/admin/users', { Cookie: user.cookie })))
  expect(home?.headers.get('Location')).toBe('/')
  const admin = await signedIn('admin')
  const allowed = await requireAdmin(request('/admin/users', { Cookie: admin.cookie }))
  expect(allowed.id).toBe(admin.user.id)
})

test('/login sends a signed-in person on and lets a visitor in', async () => {
  expect(await thrown(requireAnonymous(request('/login'), '/auctions'))).toBeNull()
  const { cookie } = await signedIn()
  const on = await thrown(requireAnonymous(request('/login', { Cookie: cookie }), '/auctions'))
  expect(on?.headers.get('Location')).toBe('/auctions')
})

test('the JSON API answers 401 and 403 in the caller’s language, with a call’s own text', async () => {
  const english = { 'Accept-Language': 'en' }
  const t = await getFixedT(request('/', english), ['autobid', 'common'])
  const anonymous = await thrown(requireApiUser(request('/api/users/stats', english)))
  expect(anonymous?.status).toBe(401)
  expect(await anonymous?.json()).toEqual({ error: t('errors.loginRequired') })
  const own = await thrown(requireApiUser(request('/', english), t, 'autobid:loginRequired'))
  expect(await own?.json()).toEqual({ error: t('autobid:loginRequired') })
  const user = await signedIn()
  const forbidden = await thrown(requireApiAdmin(request('/', { ...english, Cookie: user.cookie })))
  expect(forbidden?.status).toBe(403)
  expect(await forbidden?.json()).toEqual({ error: t('errors.adminOnly') })
  expect((await thrown(requireApiAdmin(request('/', english))))?.status).toBe(401)
  const admin = await signedIn('admin')
  expect((await requireApiAdmin(request('/', { Cookie: admin.cookie }))).id).toBe(admin.user.id)
})

test('a page or form with its own answer for a visitor gets it; a signed-in person goes on', async () => {
  const view = () => loginView({ account: null })
  const anonymous = await withUser(request('/profile'), view, (user) => user.id)
  expect(anonymous).toMatchObject({ data: { account: null }, init: { status: 401 } })
  const { user, cookie } = await signedIn()
  expect(await withUser(request('/profile', { Cookie: cookie }), view, (u) => u.id)).toBe(user.id)
  expect(
    await withUserId(
      request('/', { Cookie: cookie }),
      () => null,
      (id) => id,
    ),
  ).toBe(user.id)
  expect(
    await withUserId(
      request('/'),
      () => 'visitor',
      (id) => id,
    ),
  ).toBe('visitor')
})
