import { createCookie } from '@remix-run/node'
import { io, type Socket } from 'socket.io-client'
import { afterAll, describe, expect, test } from 'vitest'
import { base, call, newAccount, sessionOf, unique } from './api.ts'
import { createAuction } from './auctions.ts'
import { flashOf, getPage, postPage } from './pages.ts'
import { SESSION_SECRET, SESSION_SECRET_PREVIOUS } from './secrets.ts'

// Sessions against the production server: what ends them (logout, logging out everywhere, the
// account deleted) also closes their open sockets; a cookie signed with the previous secret is
// signed again with the current one.

const sockets: Socket[] = []
afterAll(() => {
  for (const socket of sockets) socket.close()
})

/**
 * A socket opened with a session cookie, and the reasons it was closed for, once it is; the
 * socket itself is kept for `stillOpen`.
 */
const opened = new Map<string[], Socket>()
async function openSocket(cookie: string) {
  const socket = io(base(), {
    transports: ['websocket'],
    extraHeaders: { Cookie: cookie },
    reconnection: false,
    forceNew: true,
    timeout: 5000,
  })
  sockets.push(socket)
  const closed: string[] = []
  opened.set(closed, socket)
  socket.on('disconnect', (reason) => closed.push(reason))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('connect_error', reject)
  })
  return closed
}

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20))
  return check()
}

/**
 * Whether a socket is still open after what the server did before this call: it asks the server
 * for an auction's state on it and waits for the answer. The server sends its answers on one
 * connection in order, so a close it had sent before comes first.
 */
async function stillOpen(closed: string[]) {
  const auction = await createAuction({ title: `Сессия ${unique()}`, startsInMs: 60_000 })
  const socket = opened.get(closed)!
  const answered = new Promise<boolean>((resolve) => {
    socket.once('auctionUpdate', () => resolve(true))
    socket.once('disconnect', () => resolve(false))
  })
  socket.emit('joinAuction', auction.id)
  return (await answered) && closed.length === 0
}

/** Another session of the same account: a login from a second device. */
async function secondSession(name: string) {
  const login = await call('/api/auth/login', { body: { username: name, password: 'secret12' } })
  expect(login.status).toBe(200)
  return sessionOf(login.cookie)
}

const signedIn = async (cookie: string) =>
  (await call('/api/auth/me', { method: 'GET', cookie })).status === 200

describe('ending sessions', () => {
  test("a logout closes that session's sockets only; logging out everywhere (API) ends the rest", async () => {
    const account = await newAccount()
    const laptop = account.cookie
    const phone = await secondSession(account.name)
    const tablet = await secondSession(account.name)
    const laptopSocket = await openSocket(laptop)
    const phoneSocket = await openSocket(phone)

    expect(await call('/api/auth/logout', { cookie: laptop })).toMatchObject({
      status: 200,
      json: { ok: true },
    })
    expect(await until(() => laptopSocket.length === 1)).toBe(true)
    expect(laptopSocket).toEqual(['io server disconnect'])
    expect(await stillOpen(phoneSocket)).toBe(true)
    expect(phoneSocket).toEqual([])
    expect(await signedIn(phone)).toBe(true)

    const everywhere = await call('/api/auth/logout-all', { cookie: phone })
    expect(everywhere).toMatchObject({ status: 200, json: { ok: true } })
    expect(everywhere.cookie).toMatch(/Max-Age=0/i)
    expect(await until(() => phoneSocket.length === 1)).toBe(true)
    expect(phoneSocket).toEqual(['io server disconnect'])
    for (const cookie of [laptop, phone, tablet]) expect(await signedIn(cookie)).toBe(false)
  })

  test('log out everywhere needs a signed-in person and a POST', async () => {
    expect(await call('/api/auth/logout-all')).toMatchObject({
      status: 401,
      json: { error: 'Требуется вход в систему' },
    })
    const { cookie } = await newAccount()
    expect((await call('/api/auth/logout-all', { method: 'GET', cookie })).status).toBe(405)
    expect(await signedIn(cookie)).toBe(true)
  })

  test("the profile's 'log out on all devices' form works without JavaScript and ends every session", async () => {
    const account = await newAccount()
    const other = await secondSession(account.name)
    const otherSocket = await openSocket(other)
    const profile = await getPage('/profile', account.cookie, 'en')
    expect(profile.status).toBe(200)
    expect(profile.text).toMatch(/<form[^>]*action="\/logout"/)
    expect(profile.text).toContain('name="scope" value="everywhere"')
    expect(profile.text).toContain('Log out on all devices')

    const answer = await postPage(
      '/logout',
      { form: { scope: 'everywhere' } },
      { cookie: account.cookie, language: 'en' },
    )
    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/login')
    expect(answer.cookies.some((line) => /session=[^;]*;.*Max-Age=0/i.test(line))).toBe(true)
    expect(flashOf(answer.cookies)?.description).toBe('You have logged out on all devices')
    expect(await until(() => otherSocket.length === 1)).toBe(true)
    expect(await signedIn(account.cookie)).toBe(false)
    expect(await signedIn(other)).toBe(false)
  })

  test('an account an admin deletes has its open sockets closed', async () => {
    const admin = await call('/api/auth/login', {
      body: { username: 'admin', password: 'admin123' },
    })
    const account = await newAccount()
    const socket = await openSocket(account.cookie)
    const deleted = await call(`/api/admin/users/${account.id}`, {
      method: 'DELETE',
      cookie: sessionOf(admin.cookie),
    })
    expect(deleted.status).toBe(200)
    expect(await until(() => socket.length === 1)).toBe(true)
    expect(socket).toEqual(['io server disconnect'])
    expect(await signedIn(account.cookie)).toBe(false)
  })
})

describe('rotating SESSION_SECRET', () => {
  test('a cookie signed with the previous secret is accepted and set again, signed with the current one', async () => {
    const { cookie } = await newAccount()
    const name = cookie.slice(0, cookie.indexOf('='))
    const signedWith = (secret: string) => createCookie(name, { secrets: [secret] })
    const sessionId = (await signedWith(SESSION_SECRET).parse(cookie)) as string
    expect(sessionId).toBeTruthy()
    const old = (await signedWith(SESSION_SECRET_PREVIOUS).serialize(sessionId)).split(';')[0]!
    expect(old).not.toBe(cookie)

    const setCookies = async (path: string, sent: string) => {
      const response = await fetch(`${base()}${path}`, { headers: { Cookie: sent } })
      expect(response.status).toBe(200)
      return response.headers.getSetCookie().filter((line) => line.startsWith(`${name}=`))
    }
    // Through the API and on a page alike.
    for (const path of ['/api/auth/me', '/']) {
      const [renewed, ...more] = await setCookies(path, old)
      expect(more).toEqual([])
      const current = renewed!.split(';')[0]!
      expect(await signedWith(SESSION_SECRET).parse(current)).toBe(sessionId)
      expect(await signedIn(current)).toBe(true)
      // A cookie signed with the current secret is left as it is.
      expect(await setCookies(path, current)).toEqual([])
    }
  })
})
