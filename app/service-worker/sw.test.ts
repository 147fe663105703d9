import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { workerCode } from '~/service-worker/worker-code.server.ts'

// The service worker's push and notification-click handlers (app/service-worker/sw.js, the code
// the site serves), run on a stand-in for the worker's global scope. A browser cannot be made
// to click a notification: no protocol of a headless Chromium dispatches `notificationclick`,
// and one dispatched by a script is untrusted (its waitUntil throws, and only a real click may
// open or focus a window).

const ORIGIN = 'https://auction.example'

type Listener = (event: unknown) => void
type Window = { url: string; focused: boolean; focus(): Promise<Window> }

function worker(openUrls: string[] = []) {
  const listeners = new Map<string, Listener>()
  const windows = openUrls.map((url) => {
    const window: Window = {
      url,
      focused: false,
      focus: async () => {
        window.focused = true
        return window
      },
    }
    return window
  })
  const opened: string[] = []
  const shown: Array<{ title: string; options: { body: string; data: { url: string } } }> = []
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    clients: {
      matchAll: async (options: unknown) => {
        expect(options).toEqual({ type: 'window', includeUncontrolled: true })
        return windows
      },
      openWindow: async (url: string) => {
        opened.push(url)
        return null
      },
    },
    registration: {
      showNotification: async (title: string, options: (typeof shown)[number]['options']) => {
        shown.push({ title, options })
      },
    },
  }
  runInNewContext(workerCode('test', { ru: '/offline?lang=ru' }), { self, URL })

  /** Dispatches an event and waits for what it asked the worker to wait for. */
  async function dispatch(type: string, event: object) {
    const waits: Promise<unknown>[] = []
    listeners.get(type)!({
      ...event,
      waitUntil: (promise: Promise<unknown>) => waits.push(promise),
    })
    await Promise.all(waits)
  }

  return {
    windows,
    opened,
    shown,
    async click(data: unknown) {
      let closed = false
      await dispatch('notificationclick', {
        notification: { data, close: () => (closed = true) },
      })
      return closed
    },
    push: (body: string) =>
      dispatch('push', { data: { json: () => JSON.parse(body), text: () => body } }),
  }
}

test('a click focuses the window already on the alert’s page, and opens nothing', async () => {
  const page = `${ORIGIN}/auction/iphone`
  const sw = worker([`${ORIGIN}/`, page])
  expect(await sw.click({ url: page })).toBe(true)
  expect(sw.windows.map((one) => one.focused)).toEqual([false, true])
  expect(sw.opened).toEqual([])
})

test('a click opens the alert’s page when no window shows it; the site’s root without one', async () => {
  const sw = worker([`${ORIGIN}/how-it-works`])
  expect(await sw.click({ url: `${ORIGIN}/auction/iphone` })).toBe(true)
  expect(await sw.click(null)).toBe(true)
  expect(sw.opened).toEqual([`${ORIGIN}/auction/iphone`, `${ORIGIN}/`])
  expect(sw.windows[0]!.focused).toBe(false)
})

test('a push is shown with its title and body; only the site’s own pages are kept to open', async () => {
  const sw = worker()
  await sw.push(JSON.stringify({ title: 'Outbid', body: 'iPhone', url: `${ORIGIN}/auction/a` }))
  await sw.push(JSON.stringify({ title: 'Won', body: 'x', url: 'https://evil.example/' }))
  await sw.push('not json')
  expect(sw.shown.map(({ title, options }) => [title, options.body, options.data.url])).toEqual([
    ['Outbid', 'iPhone', `${ORIGIN}/auction/a`],
    ['Won', 'x', `${ORIGIN}/`],
    ['auction.example', 'not json', `${ORIGIN}/`],
  ])
  // What the click then opens is the page the push named.
  expect(await sw.click(sw.shown[0]!.options.data)).toBe(true)
  expect(sw.opened).toEqual([`${ORIGIN}/auction/a`])
})
