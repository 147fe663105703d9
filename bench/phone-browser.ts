// One visit of bench/phone.ts: a fresh Chromium context (empty cache) on a phone's screen,
// signed in, throttled through the DevTools protocol, that opens a page and bids there.
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { hydratedAt, phone } from '../tests/e2e/chromium.ts'

export type Throttle = { rttMs: number; kbps: number; cpu: number }

export type Visit = {
  origin: string
  path: string
  javaScript: boolean
  /** The signed-in person's session cookie, `name=value`. */
  cookie: string
  /** The bid button's name and the text that confirms a bid (the visitor's language: ru). */
  bidButton: string
  bidPlaced: string
}

/** ms from navigation start; null where it was not seen. KiB received by resource type. */
export type VisitFigures = {
  paint: number | null
  hydrated: number | null
  bid: number | null
  kib: Record<string, number>
  note?: string
}

const POLL_MS = 50
const TIMEOUT_MS = 30_000

export async function visit(browser: Browser, throttle: Throttle, visit: Visit) {
  const context = await browser.newContext({
    ...phone,
    baseURL: visit.origin,
    locale: 'ru-RU',
    timezoneId: 'Asia/Bishkek',
    serviceWorkers: 'block',
    javaScriptEnabled: visit.javaScript,
  })
  try {
    return await run(context, throttle, visit)
  } finally {
    await context.close()
  }
}

async function run(context: BrowserContext, throttle: Throttle, visit: Visit) {
  const at = visit.cookie.indexOf('=')
  const host = new URL(visit.origin).hostname
  await context.addCookies([
    {
      name: visit.cookie.slice(0, at),
      value: visit.cookie.slice(at + 1),
      domain: host,
      path: '/',
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    },
    // Someone who bids has been here before and answered the cookie banner.
    { name: 'cookie-consent', value: 'necessary-only', domain: host, path: '/' },
  ])
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  const kib = await countBytes(cdp)
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: throttle.rttMs,
    downloadThroughput: throttle.kbps * 1024,
    uploadThroughput: throttle.kbps * 1024,
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpu })

  await page.goto(visit.path, { waitUntil: 'commit' })
  const start = await page.evaluate(() => performance.timeOrigin)
  const paint = await poll(page, () => performance.getEntriesByType('paint')[0]?.startTime)
  // With JavaScript a person presses once the page has hydrated; without, once it has loaded.
  const hydrated = visit.javaScript ? await poll(page, hydratedAt) : null
  if (!visit.javaScript) await page.waitForLoadState('domcontentloaded')
  const navigated = visit.javaScript ? null : page.waitForEvent('framenavigated')
  await page.getByRole('button', { name: visit.bidButton, exact: true }).first().click()
  await navigated
  // The confirmation: with JavaScript it comes into the page; without, with the next page,
  // whose first paint shows it.
  const placed = await poll(
    page,
    ([text, javaScript]) =>
      document.body?.innerText.includes(text) &&
      performance.timeOrigin +
        (javaScript
          ? performance.now()
          : (performance.getEntriesByType('paint')[0]?.startTime ?? performance.now())),
    [visit.bidPlaced, visit.javaScript],
  )
  const figures: VisitFigures = {
    paint,
    hydrated,
    bid: placed === null ? null : placed - start,
    kib: Object.fromEntries([...kib].map(([type, bytes]) => [type, bytes / 1024])),
  }
  if (placed === null) figures.note = `not confirmed; the page says: ${await toastText(page)}`
  return figures
}

/** Bytes received on the wire by resource type, as they arrive. */
async function countBytes(cdp: CDPSession) {
  const types = new Map<string, string>()
  const bytes = new Map<string, number>()
  cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type))
  cdp.on('Network.loadingFinished', (event) => {
    const type = types.get(event.requestId) ?? 'Other'
    bytes.set(type, (bytes.get(type) ?? 0) + event.encodedDataLength)
  })
  await cdp.send('Network.enable')
  return bytes
}

/**
 * What `predicate` returns in the page once it is a number (asked every 50 ms from here, which
 * works without JavaScript and across navigations), or null after 30 s.
 */
async function poll(
  page: Page,
  predicate: (arg: [string, boolean]) => number | false | undefined,
  arg: [string, boolean] = ['', false],
): Promise<number | null> {
  const until = Date.now() + TIMEOUT_MS
  while (Date.now() < until) {
    const value = await page.evaluate(predicate, arg).catch(() => undefined)
    if (typeof value === 'number') return value
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  return null
}

/** The toasts on the page, for a bid that was not confirmed. */
async function toastText(page: Page) {
  const toasts = await page.locator('[role=status], [role=alert]').allInnerTexts()
  return toasts.join(' | ').replace(/\s+/g, ' ') || '(nothing)'
}
