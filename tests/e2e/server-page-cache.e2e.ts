import { createHash } from 'node:crypto'
import http from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, inject, test } from 'vitest'

// Pages the production server keeps for visitors who are not logged in: served again byte for
// byte without the first visitor's nonce, compressed once, never to someone with a session.

const baseUrl = () => inject('baseUrl')

describe('the production server', () => {
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
