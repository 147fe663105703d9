import { describe, expect, test } from 'vitest'
import { base, call, newAccount, sessionOf, unique } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { getPage, postPage, withoutPageTexts } from './pages.ts'

// What an attacker sends: redirects off the site, bodies without a declared length, and what
// the public answers and caches give away.

describe('redirects stay on the site', () => {
  test('a tab, a line break or an escaped slash after the first slash is not a way out', async () => {
    const { cookie, name } = await newAccount()
    for (const to of [
      '%2F%09%2Fevil.example',
      '%2F%0A%2Fevil.example',
      '%2F%252F%2Fevil.example',
      '%2F%5C%2Fevil.example',
      '%09%2F%2Fevil.example',
    ]) {
      // Signed in, /login sends the person on at once.
      const now = await getPage(`/login?redirectTo=${to}`, cookie, 'ru')
      expect(now.status, to).toBe(302)
      expect(now.location, to).toBe('/')
      // Signed out, the login form carries the home page instead.
      const form = await getPage(`/login?redirectTo=${to}`, '', 'ru')
      expect(form.text, to).toMatch(
        /value="login"\/><input type="hidden" name="redirectTo" value="\/"/,
      )
    }
    // And a login posted with it goes home.
    const posted = await postPage('/login', {
      form: {
        intent: 'login',
        username: name,
        password: 'secret12',
        redirectTo: '/\t/evil.example',
      },
    })
    expect(posted.status).toBe(302)
    expect(posted.location).toBe('/')
    const fine = await getPage('/login?redirectTo=%2Fauctions%3Fpage%3D2', cookie, 'ru')
    expect(fine.location).toBe('/auctions?page=2')
  })
})

/**
 * A POST whose body is sent in chunks, with no Content-Length: `bytes` of it, and then, with
 * `stall`, nothing more while the body stays open. A server that read the whole body before
 * answering would never answer that one.
 */
async function postChunked(path: string, type: string, bytes: number, stall = false) {
  const chunk = new TextEncoder().encode('a'.repeat(16 * 1024))
  let sent = 0
  const upload = new AbortController()
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent < bytes) {
        sent += chunk.byteLength
        controller.enqueue(chunk)
      } else if (stall) return new Promise<void>(() => {})
      else controller.close()
    },
  })
  try {
    const response = await fetch(`${base()}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': type, Origin: base(), 'Accept-Language': 'en' },
      body,
      duplex: 'half',
      redirect: 'manual',
      signal: AbortSignal.any([upload.signal, AbortSignal.timeout(15_000)]),
    } as RequestInit)
    return { status: response.status, text: await response.text() }
  } finally {
    upload.abort()
  }
}

describe('request bodies are counted as they arrive', () => {
  test('a chunked JSON call past 64 KiB and a chunked form past 1 MiB get 413 while still sending', async () => {
    const api = await postChunked('/api/auth/login', 'application/json', 100 * 1024, true)
    expect(api.status).toBe(413)
    expect(JSON.parse(api.text)).toEqual({ error: 'Request too large' })

    const form = 'application/x-www-form-urlencoded'
    const page = await postChunked('/login', form, 1536 * 1024, true)
    expect(page.status).toBe(413)
    expect(page.text).toContain('Request too large')

    const webhook = await postChunked(
      '/api/payments/webhook/sandbox',
      'application/json',
      100 * 1024,
      true,
    )
    expect(webhook.status).toBe(413)
  })

  test('chunked bodies under the limits are read as before', async () => {
    const small = await postChunked('/api/auth/login', 'application/json', 0)
    expect(small.status).toBe(400)
    // A form under the limit reaches the login's validation, which asks for the fields.
    const form = await postPage('/login', { form: { intent: 'login', username: '' } })
    expect(form.status).toBe(400)
  })

  test("a page's script posting too much gets a refusal its router can read, not a page it cannot", async () => {
    // With JavaScript a form posts to its route's `.data` address and reads Remix's encoding;
    // a declared 1.5 MiB form there is refused by the route, through Remix.
    const big = new URLSearchParams({ intent: 'login', username: 'x'.repeat(1536 * 1024) })
    const script = await fetch(`${base()}/login.data`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: big.toString(),
    })
    expect(script.status).toBe(413)
    expect(script.headers.get('content-type')).toMatch(/^text\/x-script/)
    expect(withoutPageTexts(await script.text())).toContain('Слишком большой запрос')
    // The page itself is still refused before its body is read, as a page.
    const page = await fetch(`${base()}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' },
      body: big.toString(),
    })
    expect(page.status).toBe(413)
    expect(withoutPageTexts(await page.text())).toContain('Request too large')
  })

  test('the connection stays usable after a 413', async () => {
    expect((await postChunked('/api/auth/login', 'application/json', 100 * 1024)).status).toBe(413)
    expect((await call('/api/auth/me', { method: 'GET' })).status).toBe(401)
  })
})

describe('what public answers say of a winner', () => {
  test('the username only: no real name, no role, in the API and in the page and its data', async () => {
    const winner = await newAccount()
    const prisma = e2eDatabase()
    await prisma.user.update({
      where: { id: winner.id },
      data: { firstName: 'Скрытоеимя', lastName: 'Скрытаяфамилия', role: 'admin' },
    })
    const displayId = `W${Date.now().toString(36).toUpperCase()}`
    const auction = await prisma.auction.create({
      data: {
        displayId,
        slug: `winner-${displayId.toLowerCase()}`,
        title: `Выигранный ${unique()}`,
        description: 'Лот для проверки.',
        retailPrice: 1_000_00,
        status: 'finished',
        startTime: new Date(Date.now() - 60_000),
        endTime: new Date(),
        finalPrice: 25,
        currentPrice: 25,
        totalBids: 25,
        winnerId: winner.id,
      },
      select: { id: true, slug: true },
    })
    const bySlug = await call(`/api/auctions/slug/${auction.slug}`, { method: 'GET' })
    expect(bySlug.status).toBe(200)
    expect(bySlug.json.winner).toEqual({ username: winner.name })
    const list = await call('/api/auctions', { method: 'GET' })
    const listed = (list.json.finished as Array<{ id: string; winner: unknown }>).find(
      (item) => item.id === auction.id,
    )
    expect(listed?.winner).toEqual({ username: winner.name })
    for (const path of [`/auction/${auction.slug}`, `/auction/${auction.slug}.data`]) {
      const page = await getPage(path, '', 'ru')
      expect(page.status, path).toBe(200)
      expect(page.text, path).toContain(winner.name)
      expect(page.text, path).not.toMatch(/Скрытое|Скрытая|"admin"/)
    }
  })
})

describe('personal answers are never stored', () => {
  test('every page, redirect, refusal and API answer for a signed-in admin is private, no-store', async () => {
    const login = await call('/api/auth/login', {
      body: { username: 'admin', password: 'admin123' },
    })
    const cookie = sessionOf(login.cookie)
    const paths = [
      '/',
      '/auctions',
      '/profile',
      '/profile?edit=1',
      '/bid-history',
      '/topup',
      '/support',
      '/admin',
      '/admin/auctions/new',
      '/admin/users',
      '/admin/finished-auctions',
      '/admin/orders',
      '/admin/settings',
      '/login',
      '/login?redirectTo=%2Fprofile',
      '/auction/no-such-auction',
      '/no-such-page',
      '/_root.data',
      '/api/auth/me',
      '/api/users/profile',
      '/api/users/recent-bids',
      '/api/admin/users',
      '/api/admin/no-such-call',
    ]
    for (const path of paths) {
      const answer = await fetch(`${base()}${path}`, {
        headers: { Cookie: cookie },
        redirect: 'manual',
      })
      await answer.arrayBuffer()
      expect(answer.headers.get('cache-control'), `${path} (${answer.status})`).toBe(
        'private, no-store',
      )
    }
    // A form post's redirect, too.
    const again = await fetch(`${base()}/set-language`, {
      method: 'POST',
      headers: {
        Cookie: cookie,
        Origin: base(),
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'lng=en&redirectTo=%2Fprofile',
      redirect: 'manual',
    })
    expect(again.status).toBe(302)
    expect(again.headers.get('cache-control')).toBe('private, no-store')
  })
})

describe('the language cookie', () => {
  const lng = (language: string) => Buffer.from(JSON.stringify(language)).toString('base64')
  const langOf = (html: string) => /<html lang="([a-z]+)"/.exec(html)?.[1]

  test('is read the same way for the kept copy and the render, however the header is written', async () => {
    // The first `lng` wins; spaces around the name do not matter; a value that is not ours is
    // no choice at all (the browser's language decides).
    const cases: Array<[string, string]> = [
      [`lng=${lng('en')}`, 'en'],
      [` lng =${lng('ka')}`, 'ka'],
      [`lng=${lng('ky')}; lng=${lng('en')}`, 'ky'],
      [`lng=${lng('en')}; lng=${lng('ky')}`, 'en'],
      [`lng=${lng('xx')}`, 'ru'],
      ['lng=en', 'ru'],
    ]
    // Twice over, so the second round is answered from the kept copies.
    for (let round = 0; round < 2; round++) {
      for (const [header, language] of cases) {
        const answer = await fetch(`${base()}/support`, {
          headers: { Cookie: header, 'Accept-Language': 'ru' },
        })
        expect(langOf(await answer.text()), `${header} (round ${round})`).toBe(language)
      }
    }
  })
})
