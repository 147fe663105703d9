import { encode } from 'turbo-stream'
import { describe, expect, test } from 'vitest'
import type { CurrentUser } from '~/services/session.server.ts'
import { pageDataOf } from '../../tests/support/page-data.ts'
import { escapeHtml } from '~/utils/html.ts'
import { fillParts, markedParts, type Filler } from './own-page.server.ts'

// A shared render's data is a turbo-stream in an inline script, as Remix writes it; filling it
// for a person rewrites the root's `user` and the route's own keys. Decoded, the person's copy
// must be the data rendered for them, whatever their values hold.

const OPEN = '\uE000'
const CLOSE = '\uE001'
const NONCE = 'bm9uY2U='

async function streamText(value: unknown): Promise<string> {
  const reader = encode(value).getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (let read = await reader.read(); !read.done; read = await reader.read())
    text += decoder.decode(read.value, { stream: true })
  return text
}

/** A page as Remix renders it: markup, then the data script, escaped the way Remix escapes it. */
async function pageWith(markup: string, loaderData: Record<string, unknown>) {
  const text = await streamText({ loaderData, actionData: null, errors: null })
  const literal = JSON.stringify(text).replace(
    /[&><\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return `<html><body>${markup}<script nonce="${NONCE}">window.__remixContext.streamController.enqueue(${literal});</script><script nonce="${NONCE}">window.__remixContext.streamController.close();</script></body></html>`
}

const dataOf = pageDataOf

const standIn = {
  id: `${OPEN}t:id${CLOSE}`,
  username: `${OPEN}t:username${CLOSE}`,
  email: `${OPEN}t:email${CLOSE}`,
  firstName: `${OPEN}t:firstName${CLOSE}`,
  lastName: `${OPEN}t:lastName${CLOSE}`,
  role: 'user',
  bidBalance: 1234567890123456,
  wonAuctions: 1234567890123457,
}

function marks() {
  const found = new Map<string, Filler>()
  found.set(standIn.username, ({ own }) => escapeHtml(own.user.username))
  found.set(String(standIn.bidBalance), ({ own }) => String(own.user.bidBalance))
  found.set(` nonce="${NONCE}"`, ({ nonce }) => ` nonce="${nonce}"`)
  return found
}

const person = (username: string, bidBalance: number): CurrentUser => ({
  id: 'user-1',
  username,
  email: 'a@b.kg',
  firstName: null,
  lastName: 'Асанов',
  role: 'user',
  bidBalance,
  wonAuctions: 0,
})

describe('a shared page filled for a person', () => {
  test("the person's values land in the markup and in the data, escaped for each", async () => {
    const shared = {
      root: { language: 'ru', user: standIn, settings: { siteName: 'Аукцион' } },
      'routes/auction.$slug': {
        auction: { id: 'a1', title: '<b>Лот</b> & “кавычки”', lastBidderId: 'user-1' },
        participants: 0,
        // One entry with the stand-in's `false`: it stays for the shared key.
        discloseHouseBids: false,
        hasPrebid: false,
        autoBid: null,
      },
    }
    const html = await pageWith(
      `<header><span>${standIn.username}</span><b>${standIn.bidBalance}</b></header>`,
      shared,
    )
    const parts = markedParts(html, 'routes/auction.$slug', marks())
    expect(parts).not.toBeNull()

    for (const username of ['plain', 'a<script>&"\'x', 'line\u2028sep\u2029', 'эмодзи 🎉', '0']) {
      const user = person(username, 21)
      const filled = fillParts(parts!, {
        own: { user, hasPrebid: true, autoBid: null },
        nonce: 'fresh',
      })
      expect(filled).toContain(`<span>${escapeHtml(username)}</span><b>21</b>`)
      expect(filled).toContain('<script nonce="fresh">')
      expect(filled).not.toContain(NONCE)
      expect(filled).not.toContain(OPEN)
      const data = (await dataOf(filled)) as { loaderData: Record<string, unknown> }
      expect(data.loaderData).toEqual({
        root: { ...shared.root, user },
        'routes/auction.$slug': { ...shared['routes/auction.$slug'], hasPrebid: true },
      })
    }
  })

  test("a list of the person's own (the home page's prebids) replaces the stand-in's", async () => {
    const shared = {
      root: { user: standIn },
      'routes/_index': { upcoming: [{ id: 'a1' }, { id: 'a2' }], prebidIds: [] },
    }
    const parts = markedParts(await pageWith('', shared), 'routes/_index', marks())
    for (const prebidIds of [[], ['a2'], ['a1', 'a2']]) {
      const user = person('p', 3)
      const filled = fillParts(parts!, {
        own: { user, prebidIds },
        nonce: 'n',
      })
      const data = (await dataOf(filled)) as { loaderData: Record<string, unknown> }
      expect(data.loaderData).toEqual({
        root: { user },
        'routes/_index': { ...shared['routes/_index'], prebidIds },
      })
    }
  })

  test('a stand-in value the browser would read outside the own keys: not shared', async () => {
    const html = await pageWith(`<span>${standIn.username}</span>`, {
      root: { user: standIn },
      'routes/_index': { greeting: `Привет, ${standIn.username}`, prebidIds: [] },
    })
    expect(markedParts(html, 'routes/_index', marks())).toBeNull()
  })

  test('a mark in the markup nobody fills: not shared', async () => {
    const html = await pageWith(`<span>${standIn.email}</span>`, {
      root: { user: standIn },
      'routes/_index': { prebidIds: [] },
    })
    expect(markedParts(html, 'routes/_index', marks())).toBeNull()
  })

  test('data in more than one piece (deferred values) is not shared', async () => {
    const html = await pageWith('', { root: { user: standIn }, 'routes/_index': { prebidIds: [] } })
    const twice = html.replace(
      '<script nonce',
      `<script nonce="${NONCE}">window.__remixContext.streamController.enqueue("[1]\\n");</script><script nonce`,
    )
    expect(markedParts(twice, 'routes/_index', marks())).toBeNull()
  })
})
