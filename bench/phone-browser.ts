// One visit of bench/phone.ts: a fresh Chromium context (empty cache) on a phone's screen,
// signed in, throttled through the DevTools protocol, that opens a page and bids there.
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { hydratedAt, phone } from '../tests/e2e/chromium.ts'

export type Throttle = { rttMs: number; kbps: number; cpu: number }

export type Visit = {
  origin: string
  path: string
  javaScript: boolean
  /** When the bid button is pressed: once the page has hydrated, or as soon as it shows. */
  press: 'hydrated' | 'shown'
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
  /** Each response: when it was asked for and done (ms from the first request), KiB, type, path. */
  responses: Array<{ sent: number; done: number; kib: number; type: string; url: string }>
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

/**
 * A page opened by someone without a session, who has not answered the cookie banner yet: first
 * paint, hydrated (`hydratedWhen`, in the page) and the bytes received, empty cache. The site's
 * pages (chromium.ts `hydratedAt`) and the bare Remix app's, the floor (bench/bare.ts: the mark
 * its root sets).
 */
export async function visitAnonymous(
  browser: Browser,
  throttle: Throttle,
  url: string,
  hydratedWhen: () => number | false = hydratedAt,
) {
  const context = await browser.newContext({
    ...phone,
    locale: 'ru-RU',
    timezoneId: 'Asia/Bishkek',
    serviceWorkers: 'block',
  })
  try {
    const page = await context.newPage()
    const { bytes: kib, responses } = await throttled(context, page, throttle)
    await page.goto(url, { waitUntil: 'commit' })
    const paint = await poll(page, () => performance.getEntriesByType('paint')[0]?.startTime)
    const hydrated = await poll(page, hydratedWhen)
    const figures: VisitFigures = {
      paint,
      hydrated,
      bid: null,
      kib: Object.fromEntries([...kib].map(([type, bytes]) => [type, bytes / 1024])),
      responses,
    }
    return figures
  } finally {
    await context.close()
  }
}

/** The bare Remix app's root marks the time it hydrated (bench/bare/root.tsx). */
export const floorHydratedAt = () => Number(document.documentElement.dataset.hydrated) || false

/** The page's bytes counted, and its link and CPU slowed as `throttle` says. */
async function throttled(context: BrowserContext, page: Page, throttle: Throttle) {
  const cdp = await context.newCDPSession(page)
  const counted = await countBytes(cdp)
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: throttle.rttMs,
    downloadThroughput: throttle.kbps * 1024,
    uploadThroughput: throttle.kbps * 1024,
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpu })
  return counted
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
  const { bytes: kib, responses } = await throttled(context, page, throttle)

  await page.goto(visit.path, { waitUntil: 'commit' })
  const start = await page.evaluate(() => performance.timeOrigin)
  const paint = await poll(page, () => performance.getEntriesByType('paint')[0]?.startTime)
  const hydrated =
    visit.javaScript && visit.press === 'hydrated' ? await poll(page, hydratedAt) : null
  const button = page.getByRole('button', { name: visit.bidButton, exact: true }).first()
  // Pressed once the page has hydrated, or as soon as the button shows: before hydration, with
  // or without JavaScript, that is the form's own post, and the next page says how it went.
  await button.click({ noWaitAfter: true })
  // The confirmation: on this page (JavaScript's answer), or on the next one, whose first paint
  // shows it.
  const placed = await poll(
    page,
    ([text, first]) =>
      document.body?.innerText.includes(text) &&
      performance.timeOrigin +
        (performance.timeOrigin > first
          ? (performance.getEntriesByType('paint')[0]?.startTime ?? performance.now())
          : performance.now()),
    [visit.bidPlaced, start],
  )
  const figures: VisitFigures = {
    paint,
    hydrated,
    bid: placed === null ? null : placed - start,
    kib: Object.fromEntries([...kib].map(([type, bytes]) => [type, bytes / 1024])),
    responses,
  }
  if (placed === null) figures.note = `not confirmed; the page says: ${await toastText(page)}`
  return figures
}

/** Bytes received on the wire by resource type, and each response, as they arrive. */
async function countBytes(cdp: CDPSession) {
  const requests = new Map<string, { type: string; url: string; sent: number }>()
  const bytes = new Map<string, number>()
  const responses: VisitFigures['responses'] = []
  // The protocol's timestamps are seconds on the browser's clock; the first request's is 0 here.
  let first: number | undefined
  const ms = (timestamp: number) => (timestamp - (first ??= timestamp)) * 1000
  cdp.on('Network.requestWillBeSent', (event) =>
    requests.set(event.requestId, {
      type: event.type ?? 'Other',
      url: event.request.url.replace(/^https?:\/\/[^/]+/, ''),
      sent: ms(event.timestamp),
    }),
  )
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId)
    if (request) request.type = event.type
  })
  cdp.on('Network.loadingFinished', (event) => {
    const { type, url, sent } = requests.get(event.requestId) ?? {
      type: 'Other',
      url: '?',
      sent: 0,
    }
    bytes.set(type, (bytes.get(type) ?? 0) + event.encodedDataLength)
    responses.push({
      sent,
      done: ms(event.timestamp),
      kib: event.encodedDataLength / 1024,
      type,
      url,
    })
  })
  await cdp.send('Network.enable')
  return { bytes, responses }
}

/**
 * What `predicate` returns in the page once it is a number (asked every 50 ms from here, which
 * works without JavaScript and across navigations), or null after 30 s.
 */
async function poll(
  page: Page,
  predicate: (arg: [string, number]) => number | false | undefined,
  arg: [string, number] = ['', 0],
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
