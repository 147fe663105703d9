import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, inject, test } from 'vitest'
import { METRICS_TOKEN } from '../setup/stack.ts'

const root = path.resolve(import.meta.dirname, '../..')
const baseUrl = () => inject('baseUrl')

describe('the production server', () => {
  test('a bad environment value stops the start with a message naming the variable', () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['DATABASE_URL', 'mysql://nobody@nowhere/db'],
      ['SESSION_SECRET', 'short'],
    ] as const) {
      const result = spawnSync('node', ['build/server.js'], {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATABASE_URL: inject('e2eDatabaseUrl'),
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          SESSION_SECRET: 'a-long-enough-secret-for-production-use-1234',
          [name]: value,
        },
        encoding: 'utf8',
        timeout: 20_000,
      })
      expect(result.status).toBe(1)
      expect(result.stderr).toContain(`${name}: `)
      expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/)
    }
  })

  test('production refuses the sandbox provider without the demo switch, and says why', () => {
    const start = (extra: Record<string, string>) =>
      spawnSync('node', ['build/server.js'], {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATABASE_URL: inject('e2eDatabaseUrl'),
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          SESSION_SECRET: 'a-long-enough-secret-for-production-use-1234',
          PAYMENT_PROVIDER: 'sandbox',
          PAYMENT_SANDBOX_SECRET: 'a-sandbox-secret-for-this-test-0123',
          PAYMENT_SANDBOX_DEMO: '',
          ...extra,
        },
        encoding: 'utf8',
        timeout: 20_000,
      })
    const refused = start({})
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(
      'PAYMENT_SANDBOX_DEMO: the sandbox payment provider is for demos only',
    )
    const freedom = start({ PAYMENT_PROVIDER: 'freedompay', FREEDOMPAY_MERCHANT_ID: 'x1' })
    expect(freedom.status).toBe(1)
    expect(freedom.stderr).toContain('FREEDOMPAY_MERCHANT_ID: ')
  })

  test('/healthz answers while /readyz checks Redis and Postgres', async () => {
    const health = await fetch(`${baseUrl()}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${baseUrl()}/readyz`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    })
    expect(ready.status).toBe(200)
    const report = (await ready.json()) as Record<string, unknown>
    expect(report).toMatchObject({ ready: true, redis: 'ok', database: 'ok' })
    expect(report.outboxLag).toBeGreaterThanOrEqual(0)
  })

  test('/metrics: Prometheus figures for the bearer of the token only', async () => {
    // In production, not even this host reads them without the token.
    const bare = await fetch(`${baseUrl()}/metrics`)
    expect(bare.status).toBe(401)
    expect(await bare.json()).toEqual({ error: 'Metrics are not public' })
    const response = await fetch(`${baseUrl()}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    })
    expect(response.status).toBe(200)
    const text = await response.text()
    for (const name of [
      'pa_http_request_duration_seconds_bucket',
      'pa_outbox_lag',
      'pa_sockets',
      'pa_process_cpu_seconds_total',
    ]) {
      expect(text, name).toContain(name)
    }
    // The e2e server runs the engine's workers alone, so it holds the lease.
    expect(text).toMatch(/^pa_engine_leader 1$/m)
    const wrong = await fetch(`${baseUrl()}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}x` },
    })
    expect(wrong.status).toBe(401)
  })

  test('pages carry security headers and a CSP nonce on every inline script', async () => {
    const response = await fetch(`${baseUrl()}/`)
    const csp = response.headers.get('content-security-policy') ?? ''
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    expect(csp).toContain("frame-ancestors 'none'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.get('strict-transport-security')).toContain('max-age=')
    const html = await response.text()
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)]
    expect(inline.length).toBeGreaterThan(0)
    for (const [, attributes] of inline) expect(attributes).toContain(`nonce="${nonce}"`)
  })

  test('JSON answers carry the strictest policy and the same other headers', async () => {
    const response = await fetch(`${baseUrl()}/api/auctions`)
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    )
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('strict-transport-security')).toContain('max-age=')
  })

  test('hashed assets are cached for a year, and responses are compressed', async () => {
    const html = await (await fetch(`${baseUrl()}/`)).text()
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0]
    expect(asset).toBeTruthy()
    const response = await fetch(`${baseUrl()}${asset}`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('max-age=31536000')
    expect(response.headers.get('cache-control')).toContain('immutable')
    expect(response.headers.get('content-encoding')).toBe('gzip')
    // A script is no document: only the headers that concern it (server/security.ts).
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toBeNull()
    expect(response.headers.get('etag')).toBeNull()
  })

  test('a form post from another site is refused', async () => {
    const response = await fetch(`${baseUrl()}/set-language`, {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'lng=en&redirectTo=/',
      redirect: 'manual',
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  test('the same post from the site itself goes through', async () => {
    const response = await fetch(`${baseUrl()}/set-language`, {
      method: 'POST',
      headers: { Origin: baseUrl(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'lng=en&redirectTo=/auctions',
      redirect: 'manual',
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/auctions')
    expect(response.headers.get('set-cookie')).toMatch(/^lng=/)
  })

  test('an open redirect through redirectTo is not possible', async () => {
    const response = await fetch(`${baseUrl()}/set-language`, {
      method: 'POST',
      headers: { Origin: baseUrl(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'lng=en&redirectTo=//evil.example/',
      redirect: 'manual',
    })
    expect(response.headers.get('location')).toBe('/')
  })

  describe('a body answered before it was read', () => {
    type Sent = { status: number; location?: string; text: string; reused: boolean }
    /** One request on a keep-alive agent with a single connection: what follows reuses it. */
    function send(
      agent: http.Agent,
      method: string,
      path: string,
      body?: string,
      extra: Record<string, string> = {},
    ) {
      return new Promise<Sent>((resolve, reject) => {
        const request = http.request(
          new URL(path, baseUrl()),
          {
            agent,
            method,
            headers: {
              'Accept-Language': 'ru',
              ...extra,
              ...(body === undefined
                ? {}
                : {
                    'Content-Type': 'application/x-www-form-urlencoded',
                    'Content-Length': Buffer.byteLength(body),
                  }),
            },
          },
          (response) => {
            let text = ''
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => (text += chunk))
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                location: response.headers.location,
                text,
                reused: request.reusedSocket,
              }),
            )
          },
        )
        request.on('error', reject)
        request.end(body)
      })
    }

    test('the connection stays usable: the next request on it is answered', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      try {
        await send(agent, 'GET', '/healthz')
        // Not logged in: the profile form is answered with the login page before it is read.
        const form = `firstName=${'x'.repeat(600_000)}&lastName=y`
        const post = await send(agent, 'POST', '/profile', form)
        expect(post.status).toBe(302)
        expect(post.location).toMatch(/^\/login/)
        expect(post.reused).toBe(true)
        const next = await send(agent, 'GET', '/healthz')
        expect(next).toMatchObject({ status: 200, reused: true })
      } finally {
        agent.destroy()
      }
    })

    test("a body over 1 MiB is refused with 413 in the visitor's language", async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const page = await send(agent, 'POST', '/profile', `firstName=${'x'.repeat(2_000_000)}`)
        expect(page).toMatchObject({ status: 413, text: 'Слишком большой запрос' })
        const api = await send(agent, 'POST', '/api/auth/login', 'x'.repeat(3_000_000))
        expect(api.status).toBe(413)
        expect(JSON.parse(api.text)).toEqual({ error: 'Слишком большой запрос' })
        const next = await send(agent, 'GET', '/healthz')
        expect(next).toMatchObject({ status: 200, reused: true })
      } finally {
        agent.destroy()
      }
    })

    test('a browser gets the refusal as a page in its language, with a way back', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      const browserHeaders = (referer: string) => ({
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'Accept-Language': 'en',
        Referer: referer,
      })
      try {
        const big = `firstName=${'x'.repeat(2_000_000)}`
        const ours = new URL('/profile?tab=1', baseUrl()).href
        const page = await send(agent, 'POST', '/profile', big, browserHeaders(ours))
        expect(page.status).toBe(413)
        expect(page.text).toContain('<html lang="en">')
        expect(page.text).toContain('<h1>Request too large</h1>')
        expect(page.text).toContain('<a href="/profile?tab=1">Back</a>')
        const elsewhere = await send(
          agent,
          'POST',
          '/profile',
          big,
          browserHeaders('https://elsewhere.example/"><script>x</script>'),
        )
        expect(elsewhere.text).toContain('<a href="/">Back</a>')
        expect(elsewhere.text).not.toContain('<script>')
      } finally {
        agent.destroy()
      }
    })
  })

  describe('pages kept for visitors who are not logged in', () => {
    const nonces = (html: string) => [...new Set(html.match(/nonce="([^"]+)"/g) ?? [])]
    const get = (cookie?: string) =>
      fetch(`${baseUrl()}/how-it-works?kept=1`, {
        headers: { 'Accept-Language': 'ru', ...(cookie ? { Cookie: cookie } : {}) },
      })

    test('served again byte for byte, its scripts allowed by their hashes, compressed once', async () => {
      const raw = (encoding: string, etag?: string) =>
        new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
          (resolve, reject) => {
            const request = http.get(
              `${baseUrl()}/how-it-works?kept=1`,
              {
                headers: {
                  'Accept-Language': 'ru',
                  'Accept-Encoding': encoding,
                  ...(etag ? { 'If-None-Match': etag } : {}),
                },
              },
              (response) => {
                const chunks: Buffer[] = []
                response.on('data', (chunk: Buffer) => chunks.push(chunk))
                response.on('end', () =>
                  resolve({
                    status: response.statusCode!,
                    headers: response.headers,
                    body: Buffer.concat(chunks),
                  }),
                )
              },
            )
            request.on('error', reject)
          },
        )
      const first = await raw('identity')
      const rendered = first.body.toString('utf8')
      expect(first.headers['x-page-cache']).toBeUndefined()
      expect(first.headers['content-security-policy']).toMatch(/'nonce-[^']+'/)
      expect(nonces(rendered)).toHaveLength(1)

      const plain = await raw('identity')
      expect(plain.headers['x-page-cache']).toBe('hit')
      const html = plain.body.toString('utf8')
      // The first visitor's nonce is not handed to anyone else: the kept page has none.
      expect(nonces(html)).toEqual([])
      expect(html).toBe(rendered.replace(/ nonce="[^"]+"/g, ''))
      const policy = String(plain.headers['content-security-policy'])
      expect(policy).not.toContain("'nonce-")
      const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
      expect(scripts.length).toBeGreaterThan(0)
      for (const code of scripts)
        expect(policy).toContain(`'sha256-${createHash('sha256').update(code).digest('base64')}'`)
      expect(policy).toContain("'strict-dynamic'")

      // Compressed as each visitor accepts, the same page inside.
      const br = await raw('gzip, br')
      expect(br.headers['content-encoding']).toBe('br')
      expect(brotliDecompressSync(br.body).toString('utf8')).toBe(html)
      const gzip = await raw('gzip')
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(gzip.body).toString('utf8')).toBe(html)
      expect(String(gzip.headers.vary)).toContain('Accept-Encoding')
      expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length)

      // A visitor who has it already gets 304.
      const etag = String(plain.headers.etag)
      const again = await raw('gzip', etag)
      expect(again.status).toBe(304)
      expect(again.body.length).toBe(0)
    })

    test('never for someone with a session, and per language', async () => {
      await (await get()).text()
      const personal = await get('__Host-session=someone')
      expect(personal.headers.get('x-page-cache')).toBeNull()
      const chosen = await fetch(`${baseUrl()}/set-language`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'lng=en&redirectTo=/',
        redirect: 'manual',
      })
      const lng = chosen.headers.getSetCookie().find((line) => line.startsWith('lng='))
      const english = lng!.split(';')[0]!
      // Kept once the first answer is through (read to its end).
      await (await get(english)).text()
      const page = await get(english)
      expect(page.headers.get('x-page-cache')).toBe('hit')
      expect(await page.text()).toContain('<html lang="en"')
      expect(await (await get()).text()).toContain('<html lang="ru"')
    })
  })
})
