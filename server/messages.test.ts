import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { refuse } from './messages.ts'

// The page the Express server answers with before Remix (a post from another site, a form too
// large) links back to where the visitor came from, only ever on this site.

let server: Server
let base = ''
beforeAll(async () => {
  const app = express()
  app.post('/refused', (req, res, next) => void refuse(req, res, 403, 'crossSite').catch(next))
  server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function backLink(referer: string | null) {
  const response = await fetch(`${base}/refused`, {
    method: 'POST',
    headers: {
      Accept: 'text/html',
      'Accept-Language': 'en',
      ...(referer ? { Referer: referer } : {}),
    },
  })
  expect(response.status).toBe(403)
  const href = /<a href="([^"]*)">/.exec(await response.text())?.[1]
  return href?.replaceAll('&amp;', '&')
}

test('the back link goes to the page of this site the visitor came from, else home', async () => {
  expect(await backLink(`${base}/auctions?page=2&sort=ending`)).toBe('/auctions?page=2&sort=ending')
  expect(await backLink(`${base}/`)).toBe('/')
  expect(await backLink('https://elsewhere.example/auctions')).toBe('/')
  expect(await backLink('not an address')).toBe('/')
  expect(await backLink(null)).toBe('/')
})

test('a path that starts with several slashes stays on this site: no link to another host', async () => {
  // "//host/x" in a link is another site's address (a scheme-relative URL); a backslash is read
  // as a slash by browsers and by the URL parser alike.
  for (const [path, expected] of [
    ['//evil.example/x', '/evil.example/x'],
    ['///evil.example', '/evil.example'],
    ['/\\evil.example/x?y=1', '/evil.example/x?y=1'],
    ['/\\/\\evil.example', '/evil.example'],
  ]) {
    const href = await backLink(`${base}${path}`)
    expect(href).toBe(expected)
    expect(new URL(href!, 'https://auction.kg/').host).toBe('auction.kg')
  }
})
