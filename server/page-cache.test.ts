import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { normalisedUrl, pageCache, type PageCache } from './page-cache.ts'

// The cache keeps what HTTP lets a shared cache keep, by the answer's own headers, and nothing
// else. A route here counts its renders, so a kept answer is one that was not rendered again.

let base = ''
let close: () => void = () => {}
const renders = new Map<string, number>()
let cache: PageCache
/** Holds the answer of `/slow` until the test lets it go. */
let release: () => void = () => {}
/** Requests of `/slow` that reached the route. */
let slowArrived = 0

beforeAll(async () => {
  const app = express()
  app.use((_req, res, next) => {
    res.locals.cspNonce = 'n0nce'
    next()
  })
  cache = pageCache({ maxBytes: 64 * 1024 })
  app.use(cache)
  app.get('/:kind', async (req, res) => {
    if (req.params.kind === 'slow') {
      slowArrived += 1
      await new Promise<void>((resolve) => (release = resolve))
    }
    const kind = req.params.kind!
    const count = (renders.get(kind) ?? 0) + 1
    renders.set(kind, count)
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    res.setHeader('Vary', 'Cookie, Accept-Language')
    res.setHeader('Content-Security-Policy', "script-src 'nonce-n0nce' 'strict-dynamic'")
    if (kind === 'public' || kind === 'big' || kind === 'cleared' || kind === 'slow')
      res.setHeader('Cache-Control', 'public, max-age=0, s-maxage=60')
    if (kind === 'private') res.setHeader('Cache-Control', 'private, no-store')
    if (kind === 'cookie') {
      res.setHeader('Cache-Control', 'public, s-maxage=60')
      res.setHeader('Set-Cookie', 'toast=; Max-Age=0')
    }
    const filler = kind === 'big' ? 'x'.repeat(40 * 1024) : ''
    res.end(
      `<html><body>${kind} ${count} ${req.get('cookie') ?? ''}${filler}<script nonce="n0nce">go()</script></body></html>`,
    )
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => server.close()
})
afterAll(() => close())

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers })

test('a public answer is kept and served again, its scripts allowed by hash instead of the nonce', async () => {
  const first = await get('/public')
  expect(await first.text()).toContain('public 1')
  const again = await get('/public')
  expect(again.headers.get('x-page-cache')).toBe('hit')
  const html = await again.text()
  expect(html).toContain('public 1')
  expect(html).not.toContain('nonce=')
  expect(again.headers.get('content-security-policy')).toMatch(/'sha256-[^']+' 'strict-dynamic'/)
  expect(again.headers.get('vary')).toMatch(/accept-encoding/i)
  expect(renders.get('public')).toBe(1)
})

test('private, unmarked and cookie-setting answers are never kept', async () => {
  for (const kind of ['private', 'plain', 'cookie']) {
    await (await get(`/${kind}`)).text()
    const again = await get(`/${kind}`)
    expect(again.headers.get('x-page-cache'), kind).toBeNull()
    expect(await again.text(), kind).toContain(`${kind} 2`)
  }
})

test('a copy is only for requests with the same Cookie and Accept-Language (Vary)', async () => {
  await (await get('/public?v=1', { Cookie: 'lng=en' })).text()
  const other = await get('/public?v=1', { Cookie: 'session=someone' })
  expect(other.headers.get('x-page-cache')).toBeNull()
  expect(await other.text()).toContain('session=someone')
  const same = await get('/public?v=1', { Cookie: 'lng=en' })
  expect(same.headers.get('x-page-cache')).toBe('hit')
  expect(await same.text()).toContain('lng=en')
})

test('tracking parameters and the order of the query do not make another page', () => {
  const at = (originalUrl: string) => normalisedUrl({ originalUrl, headers: { host: 'h' } })
  expect(at('/auctions?page=2&utm_source=x&fbclid=1&gclid=2&a=1')).toBe(at('/auctions?a=1&page=2'))
  expect(at('/auctions?page=2')).not.toBe(at('/auctions?page=3'))
})

test('the cache holds at most its size in bytes: older pages leave for newer ones', async () => {
  await (await get('/big?n=1')).text()
  expect((await get('/big?n=1')).headers.get('x-page-cache')).toBe('hit')
  await (await get('/big?n=2')).text()
  // Two 40 KiB pages do not fit in 64 KiB: the first is gone.
  const first = await get('/big?n=1')
  expect(first.headers.get('x-page-cache')).toBeNull()
  await first.text()
})

test('clear() drops every kept page, and a page rendered before it is not kept', async () => {
  await get('/cleared')
  expect((await get('/cleared')).headers.get('x-page-cache')).toBe('hit')
  cache.clear()
  const after = await get('/cleared')
  expect(after.headers.get('x-page-cache')).toBeNull()
  expect(await after.text()).toContain('cleared 2')

  // Rendered across a clear(): sent to its visitor, but the next visitor gets a new render.
  const slow = get('/slow')
  await expect.poll(() => slowArrived).toBe(1)
  cache.clear()
  release()
  expect(await (await slow).text()).toContain('slow 1')
  const next = get('/slow')
  await expect.poll(() => slowArrived).toBe(2)
  release()
  const second = await next
  expect(second.headers.get('x-page-cache')).toBeNull()
  expect(await second.text()).toContain('slow 2')
})
