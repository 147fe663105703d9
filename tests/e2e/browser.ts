import { mkdirSync } from 'node:fs'
import path from 'node:path'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
  type Response,
} from 'playwright-core'
import { afterAll, afterEach, beforeAll, inject } from 'vitest'
import { hydratedAt, launchChromium, type ChromiumKind } from './chromium.ts'

export { phone } from './chromium.ts'
export const artifacts = path.resolve(import.meta.dirname, 'artifacts')

/** Contexts opened with JavaScript off: their pages are used as soon as they have loaded. */
const scriptsOff = new WeakSet<BrowserContext>()

/**
 * The longest a page may take to hydrate: on a 2-core machine running the browser tests beside
 * the fault tests (and more), hydration has taken over 30 s, Playwright's default.
 */
const HYDRATION_TIMEOUT_MS = 50_000

/** What a person waits for before clicking: the page hydrated (chromium.ts `hydratedAt`). */
export async function hydrated(page: Page) {
  await page.waitForFunction(hydratedAt, undefined, { timeout: HYDRATION_TIMEOUT_MS })
}

/**
 * Opens `url` as a person would before using it: with JavaScript, loaded and hydrated; without
 * it, loaded (there is nothing more to wait for). Pages without the site's header (an error page)
 * are opened with `page.goto` and not clicked in.
 */
export async function open(page: Page, url: string): Promise<Response | null> {
  const response = await page.goto(url)
  if (!scriptsOff.has(page.context())) await hydrated(page)
  return response
}

export type PageOptions = BrowserContextOptions & {
  /**
   * The person has already answered the cookie banner ("necessary only"): it would show two
   * seconds after the load and cover the lower part of the screen (a phone's links, screenshots).
   */
  consented?: boolean
}

/**
 * One Chromium per test file (the headless shell unless the file needs the whole browser,
 * chromium.ts); every test opens its own contexts (cookies start empty), closed when the test
 * ends: a page left open keeps its live connection, its countdowns and its re-renders on every
 * bid going for the rest of the file.
 */
export function setupBrowser({
  kind = 'shell',
  concurrent = false,
}: {
  kind?: ChromiumKind
  /** The file's tests run at once: each closes its own pages, the rest close with the file. */
  concurrent?: boolean
} = {}) {
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  const closeAll = async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {})
  }
  beforeAll(async () => {
    browser = await launchChromium(kind)
  })
  if (!concurrent) {
    afterEach(async ({ task }) => {
      if (task.result?.state === 'fail') reportPages(task.name, contexts)
      await closeAll()
    })
  }
  afterAll(async () => {
    await closeAll()
    await browser?.close()
  })
  return {
    baseUrl: () => inject('baseUrl'),
    async newPage({ consented = false, ...options }: PageOptions = {}): Promise<Page> {
      if (!browser) throw new Error('browser not started')
      const context = await browser.newContext({
        baseURL: inject('baseUrl'),
        locale: 'ru-RU',
        timezoneId: 'Asia/Bishkek',
        // The site's service worker fetches the build files itself, out of reach of
        // `page.route`: tests that hold or count requests get it only when they ask for it
        // (tests/e2e/web-app.e2e.ts does).
        serviceWorkers: 'block',
        ...options,
      })
      // Every wait (a navigation, a dialog opening, a click's target) gets as long as hydration:
      // on a busy machine a registration's redirect and a dialog route's opening took over 30 s,
      // Playwright's default (what was unanswered then is printed, `reportPages`).
      context.setDefaultTimeout(HYDRATION_TIMEOUT_MS)
      followRequests(context)
      contexts.push(context)
      if (options.javaScriptEnabled === false) scriptsOff.add(context)
      if (consented) {
        await context.addCookies([
          { name: 'cookie-consent', value: 'necessary-only', url: inject('baseUrl') },
        ])
      }
      return context.newPage()
    },
  }
}

/** The requests each context has sent and not yet had answered, with when they were sent. */
const inFlight = new WeakMap<BrowserContext, Map<Request, number>>()
/** What went wrong in each context's pages: failed requests, error answers, uncaught errors. */
const troubles = new WeakMap<BrowserContext, string[]>()
/** Troubles kept per context at most: the first ones explain the rest. */
const MOST_TROUBLES = 12

function followRequests(context: BrowserContext) {
  const pending = new Map<Request, number>()
  const seen: string[] = []
  const note = (text: string) => {
    if (seen.length < MOST_TROUBLES) seen.push(text)
  }
  inFlight.set(context, pending)
  troubles.set(context, seen)
  context.on('request', (request) => pending.set(request, Date.now()))
  context.on('requestfinished', (request) => pending.delete(request))
  context.on('requestfailed', (request) => {
    pending.delete(request)
    const why = request.failure()?.errorText
    // Without JavaScript the page's scripts are refused, as they should be.
    if (why === 'csp' && scriptsOff.has(context)) return
    note(`failed: ${request.method()} ${request.url()} (${why})`)
  })
  context.on('response', (response) => {
    if (response.status() >= 500) note(`answered ${response.status()}: ${response.url()}`)
  })
  context.on('weberror', (error) => note(`uncaught in the page: ${error.error().message}`))
}

/**
 * What the failed test's pages were doing when it ended: each page's address and the requests
 * still unanswered, with their age (a wait that timed out on a busy machine says which answer it
 * was waiting for), then the requests that failed, the server errors and the pages' uncaught
 * errors (a page that never hydrates says why).
 */
function reportPages(test: string, contexts: readonly BrowserContext[]) {
  const lines = [`[pages] "${test}" failed; its pages then:`]
  for (const context of contexts) {
    for (const page of context.pages()) lines.push(`[pages]   ${page.url()}`)
    for (const [request, sent] of inFlight.get(context) ?? []) {
      const age = ((Date.now() - sent) / 1000).toFixed(1)
      lines.push(`[pages]     unanswered for ${age} s: ${request.method()} ${request.url()}`)
    }
    for (const trouble of troubles.get(context) ?? []) lines.push(`[pages]     ${trouble}`)
  }
  process.stderr.write(`${lines.join('\n')}\n`)
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true })
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true })
}
