// Lighthouse as an outside judge: its mobile preset (a mid-range phone, simulated slow 4G, the
// CPU slowed 4x; https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md) run
// with Debian's Chromium against the production build, on the home page, a live auction page,
// /auctions and /login, anonymous and signed in (a signed-in person's /login goes home, so it is
// measured anonymous only). Prints each page's four category scores and its Core Web Vitals
// beside the goals (performance at least 90, the other three 100), and the audits each miss
// fails. `npm run bench:lighthouse [-- --live 6 --upcoming 6]`.
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumPaths } from '../tests/e2e/chromium.ts'
import { startLiveSite, warmUp } from './live-site.ts'
import { benchArgs } from './support.ts'

const { numbers } = benchArgs({ live: 3, upcoming: 6 })
const say = (line: string) => process.stdout.write(`${line}\n`)

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
type Category = (typeof CATEGORIES)[number]
const GOAL: Record<Category, number> = {
  performance: 90,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
}

type Row = {
  page: string
  session: 'anonymous' | 'signed in'
  scores: Record<Category, number>
  lcpMs: number
  tbtMs: number
  cls: number
  misses: string[]
}

const live = await startLiveSite({
  name: 'lighthouse',
  live: numbers.live,
  upcoming: numbers.upcoming,
})
const { site, person } = live
const origin = site.origins[0]!
const pages = [
  { name: 'home page', path: '/', signedIn: true },
  {
    name: 'auction page',
    path: `/auction/${encodeURIComponent(site.auctions[0]!.slug)}`,
    signedIn: true,
  },
  { name: '/auctions', path: '/auctions', signedIn: true },
  { name: '/login', path: '/login', signedIn: false },
]
const rows: Row[] = []
const chrome = await chromeLauncher.launch({
  chromePath: chromiumPaths.browser,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
})
try {
  await warmUp(
    origin,
    pages.map((p) => p.path),
    person.cookie,
  )
  for (const page of pages)
    for (const signedIn of page.signedIn ? [false, true] : [false]) {
      say(`${page.name}, ${signedIn ? 'signed in' : 'anonymous'}...`)
      const result = await lighthouse(`${origin}${page.path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        extraHeaders: signedIn ? { Cookie: person.cookie } : undefined,
      })
      if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`)
      const { lhr } = result
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
      rows.push({
        page: page.name,
        session: signedIn ? 'signed in' : 'anonymous',
        scores: Object.fromEntries(
          CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
        ) as Record<Category, number>,
        lcpMs: numeric('largest-contentful-paint'),
        tbtMs: numeric('total-blocking-time'),
        cls: numeric('cumulative-layout-shift'),
        // What keeps a category from 100 (performance: its audits' own opportunities instead).
        misses: CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
          (lhr.categories[c]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => `${c}: ${lhr.audits[ref.id]!.title}`),
        ),
      })
    }
} finally {
  await chrome.kill()
  await live.close()
}

const pad = (text: string | number, width: number) => String(text).padEnd(width)
const padStart = (text: string | number, width: number) => String(text).padStart(width)
const mark = (category: Category, score: number) => `${score}${score >= GOAL[category] ? ' ' : '!'}`
say('')
say(
  `Lighthouse 12 mobile preset on Debian's Chromium; goals: performance >= ${GOAL.performance}, the other three 100 (! misses)`,
)
say(
  `${pad('page', 14)}${pad('session', 11)}${padStart('perf', 6)}${padStart('a11y', 6)}${padStart('bp', 6)}${padStart('seo', 6)}${padStart('LCP', 9)}${padStart('TBT', 9)}${padStart('CLS', 7)}`,
)
for (const row of rows)
  say(
    `${pad(row.page, 14)}${pad(row.session, 11)}${CATEGORIES.map((c) => padStart(mark(c, row.scores[c]), 6)).join('')}${padStart(`${(row.lcpMs / 1000).toFixed(2)} s`, 9)}${padStart(`${Math.round(row.tbtMs)} ms`, 9)}${padStart(row.cls.toFixed(3), 7)}`,
  )
const misses = rows.flatMap((row) =>
  row.misses.map((miss) => `${row.page} (${row.session}): ${miss}`),
)
say('')
say(misses.length ? 'what the misses are:' : 'accessibility, best practices and SEO: no misses')
for (const miss of misses) say(`  ${miss}`)
