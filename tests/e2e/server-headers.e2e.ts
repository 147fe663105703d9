import { describe, expect, inject, test } from 'vitest'

// What the production server adds to every answer: security headers, a nonce on each inline
// script, long-cached compressed assets, and forms refused from another site.

const baseUrl = () => inject('baseUrl')

/** A language form posted to /set-language as if from `origin`; its redirect not followed. */
const postLanguage = (origin: string, body: string) =>
  fetch(`${baseUrl()}/set-language`, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  })

describe('the production server', () => {
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
    // Every inline script the browser runs; the page's texts are a JSON data block, which no
    // policy governs because nothing runs it (app/i18n/page-texts.tsx).
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map(([, a]) => a!)
    const data = inline.filter((attributes) => attributes.includes('type="application/json"'))
    expect(data).toEqual([' id="page-texts" type="application/json"'])
    const run = inline.filter((attributes) => !data.includes(attributes))
    expect(run.length).toBeGreaterThan(0)
    for (const attributes of run) expect(attributes).toContain(`nonce="${nonce}"`)
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
    const response = await postLanguage('https://evil.example', 'lng=en&redirectTo=/')
    expect(response.status).toBe(403)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  test('the same post from the site itself goes through', async () => {
    const response = await postLanguage(baseUrl(), 'lng=en&redirectTo=/auctions')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/auctions')
    expect(response.headers.get('set-cookie')).toMatch(/^lng=/)
  })

  test('an open redirect through redirectTo is not possible', async () => {
    const response = await postLanguage(baseUrl(), 'lng=en&redirectTo=//evil.example/')
    expect(response.headers.get('location')).toBe('/')
  })
})
