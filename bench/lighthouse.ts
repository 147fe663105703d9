// Lighthouse as an outside judge: its mobile preset (a mid-range phone, simulated slow 4G, the
// CPU slowed 4x; docs/decisions/086-judging-pages-from-outside.md) run
// with Debian's Chromium against the production build, on the home page, a live auction page,
// /auctions and /login, anonymous and signed in (a signed-in person's /login goes home, so it is
// measured anonymous only). Prints each page's four category scores and its Core Web Vitals
// beside the goals (performance at least 90, the other three 100), and the audits each miss
// fails. With `--runs N` each page is judged N times and the run with the median performance score
// is shown, with the range of the scores: on a 2-core machine running the site too, one run's
// score moves by several points.
// `npm run bench:lighthouse [-- --runs 3 --live 6 --upcoming 6 --build folder]`.
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumPaths } from '../tests/e2e/chromium.ts'
import { startLiveSite, warmUp } from './live-site.ts'
import { benchArgs } from './support.ts'

const { numbers, values } = benchArgs(
  { live: 3, upcoming: 6, runs: 1 },
  {
    /** Another build of the site to judge (a folder with its build/, e.g. the code before a change). */
    build: { type: 'string' },
  },
)
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
  /** The performance scores of every run of the page, lowest first. */
  range: number[]
}

const live = await startLiveSite({
  name: 'lighthouse',
  live: numbers.live,
  upcoming: numbers.upcoming,
  build: values.build,
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
      const runs: Row[] = []
      for (let run = 0; run < numbers.runs; run++)
        runs.push(rowOf(page.name, signedIn, await judge(page.path, signedIn)))
      runs.sort((a, b) => a.scores.performance - b.scores.performance)
      const median = runs[Math.floor((runs.length - 1) / 2)]!
      rows.push({ ...median, range: runs.map((run) => run.scores.performance) })
    }
} finally {
  await chrome.kill()
  await live.close()
}

function rowOf(page: string, signedIn: boolean, lhr: Awaited<ReturnType<typeof judge>>): Row {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
  return {
    page,
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
    range: [],
  }
}

/**
 * Lighthouse's report of one page. A run that failed (`runtimeError`: the page never painted,
 * the protocol timed out on a busy machine) measured nothing: it is said and run again, twice at
 * most.
 */
async function judge(pagePath: string, signedIn: boolean) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(`${origin}${pagePath}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      extraHeaders: signedIn ? { Cookie: person.cookie } : undefined,
    })
    if (!result) throw new Error(`Lighthouse gave no result for ${pagePath}`)
    const { lhr } = result
    if (!lhr.runtimeError || attempt === 3) return lhr
    say(`  that run failed (${lhr.runtimeError.code}: ${lhr.runtimeError.message}); again`)
  }
}

const pad = (text: string | number, width: number) => String(text).padEnd(width)
const padStart = (text: string | number, width: number) => String(text).padStart(width)
const mark = (category: Category, score: number) => `${score}${score >= GOAL[category] ? ' ' : '!'}`
say('')
say(
  `Lighthouse 12 mobile preset on Debian's Chromium; goals: performance >= ${GOAL.performance}, the other three 100 (! misses)`,
)
say(
  `${pad('page', 14)}${pad('session', 11)}${padStart('perf', 6)}${padStart('a11y', 6)}${padStart('bp', 6)}${padStart('seo', 6)}${padStart('LCP', 9)}${padStart('TBT', 9)}${padStart('CLS', 7)}  perf of each run`,
)
for (const row of rows)
  say(
    `${pad(row.page, 14)}${pad(row.session, 11)}${CATEGORIES.map((c) => padStart(mark(c, row.scores[c]), 6)).join('')}${padStart(`${(row.lcpMs / 1000).toFixed(2)} s`, 9)}${padStart(`${Math.round(row.tbtMs)} ms`, 9)}${padStart(row.cls.toFixed(3), 7)}  ${row.range.join(' ')}`,
  )
const misses = rows.flatMap((row) =>
  row.misses.map((miss) => `${row.page} (${row.session}): ${miss}`),
)
say('')
say(misses.length ? 'what the misses are:' : 'accessibility, best practices and SEO: no misses')
for (const miss of misses) say(`  ${miss}`)
