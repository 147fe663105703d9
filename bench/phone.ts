// A phone on Slow 3G: Debian's Chromium (tests/e2e/chromium.ts) with the DevTools protocol's own
// throttling (400 ms round trip, 50 KB/s down and up, the CPU slowed 4x) and a phone's screen
// opens the home page and a live auction page, signed in, with an empty cache, with and without
// JavaScript, and once more without a session (first paint and hydrated only): first paint (the
// browser's paint timing), hydrated (the signal the browser tests wait for) and a bid placed
// (from navigation start until "bid accepted" is on the page), the button pressed once the page
// has hydrated (JavaScript on) and as soon as it shows (before hydration that is the form's own
// post, as without JavaScript). Each figure beside its goal. The auctions have product pictures
// (prisma/seed-pictures) and other people keep them going. `npm run bench:phone [-- --runs 2 --live 6]`.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { launchChromium, phone } from '../tests/e2e/chromium.ts'
import { root } from '../tests/setup/stack.ts'
import { startLiveSite, warmUp } from './live-site.ts'
import {
  floorHydratedAt,
  visit,
  visitAnonymous,
  type Visit,
  type VisitFigures,
} from './phone-browser.ts'
import { startBareApp } from './bare.ts'
import { floorLines, responseLines, tableLines, type FloorRun, type Run } from './phone-report.ts'
import { benchArgs } from './support.ts'

const { numbers, values } = benchArgs(
  { runs: 1, live: 6, upcoming: 6, rtt: 400, kbps: 50, cpu: 4 },
  {
    /** Each response of each visit: when it was asked for and done, its size and address. */
    responses: { type: 'boolean', default: false },
    /** Another build of the site to visit (a folder with its build/, e.g. the code before a change). */
    build: { type: 'string' },
  },
)
const say = (line: string) => process.stdout.write(`${line}\n`)
const throttle = { rttMs: numbers.rtt, kbps: numbers.kbps, cpu: numbers.cpu }
const texts = JSON.parse(readFileSync(path.join(root, 'app/locales/ru/common.json'), 'utf8')) as {
  auction: { bidButton: string }
  bidding: { bidPlaced: string }
}

const live = await startLiveSite({
  name: 'phone',
  live: numbers.live,
  upcoming: numbers.upcoming,
  build: values.build,
})
const { site, person, takeTheLead } = live

const rows: Array<{ name: string; runs: Run[] }> = []
const floor: FloorRun[] = []
let browser: Browser | undefined
try {
  browser = await launchChromium()
  const cases = [
    { name: 'home page', path: '/' },
    { name: 'auction page', path: `/auction/${site.auctions[0]!.slug}` },
  ]
  await warmUp(
    site.origins[0]!,
    cases.map((c) => c.path),
    person.cookie,
  )
  for (const { name, path: pagePath } of cases)
    for (const javaScript of [true, false]) {
      const row = { name: `${name}, JavaScript ${javaScript ? 'on' : 'off'}`, runs: [] as Run[] }
      for (let run = 0; run < numbers.runs; run++) {
        const measured: Partial<Record<Visit['press'], VisitFigures>> = {}
        for (const press of javaScript ? (['hydrated', 'shown'] as const) : (['shown'] as const)) {
          say(`${row.name}, pressed once ${press}: run ${run + 1}...`)
          await takeTheLead()
          const figures = await visit(browser, throttle, {
            origin: site.origins[0]!,
            path: pagePath,
            javaScript,
            press,
            cookie: person.cookie,
            bidButton: texts.auction.bidButton,
            bidPlaced: texts.bidding.bidPlaced,
          })
          if (figures.note) say(`  ${figures.note}`)
          if (values.responses) for (const line of responseLines(figures)) say(`  ${line}`)
          measured[press] = figures
        }
        const first = measured.hydrated ?? measured.shown!
        const hydratedAt = measured.hydrated?.hydrated ?? null
        row.runs.push({
          paint: first.paint,
          hydrated: hydratedAt,
          bidHydrated: measured.hydrated?.bid ?? null,
          bidShown: measured.shown?.bid ?? null,
          kib: first.kib,
          ...beforeHydration(first, hydratedAt),
        })
      }
      rows.push(row)
    }
  // Someone new: no session, the cookie banner not answered yet, JavaScript on.
  for (const { name, path: pagePath } of cases) {
    const row = { name: `${name}, anonymous`, runs: [] as Run[] }
    for (let run = 0; run < numbers.runs; run++) {
      say(`${row.name}: run ${run + 1}...`)
      const figures = await visitAnonymous(browser, throttle, `${site.origins[0]!}${pagePath}`)
      if (values.responses) for (const line of responseLines(figures)) say(`  ${line}`)
      row.runs.push({
        paint: figures.paint,
        hydrated: figures.hydrated,
        bidHydrated: null,
        bidShown: null,
        kib: figures.kib,
        ...beforeHydration(figures, figures.hydrated),
      })
    }
    rows.push(row)
  }
  // The floor: the bare Remix app (Remix's template, a page with a loader, React 19; bench/bare.ts)
  // on the same phone and link, its server started now that the site's visits are done.
  const bare = await startBareApp(say)
  try {
    for (let run = 0; run < numbers.runs; run++) {
      say(`the bare Remix app's page: run ${run + 1}...`)
      const figures = await visitAnonymous(browser, throttle, `${bare.url}/`, floorHydratedAt)
      if (values.responses) for (const line of responseLines(figures)) say(`  ${line}`)
      floor.push({
        paint: figures.paint,
        hydrated: figures.hydrated,
        scriptKib: beforeHydration(figures, figures.hydrated).scriptKibBeforeHydrated,
      })
    }
  } finally {
    await bare.stop()
  }
} finally {
  await browser?.close()
  await live.close()
}

say(
  [
    '',
    `a phone (${phone.viewport.width}x${phone.viewport.height}) on Chromium: ${numbers.rtt} ms round trip, ${numbers.kbps} KB/s down and up, CPU ${numbers.cpu}x slower; signed in unless the row says anonymous, empty cache; ${numbers.runs} run(s) each`,
    ...tableLines(rows, throttle),
    '',
    ...floorLines(rows, floor),
    '',
  ].join('\n'),
)

/** KiB received by `ms` after the first request (about navigation start). */
/** KiB received before the page hydrated, and of them scripts; null when it never did. */
function beforeHydration(figures: VisitFigures, hydratedAt: number | null) {
  return {
    kibBeforeHydrated: hydratedAt === null ? null : kibUntil(figures, hydratedAt),
    scriptKibBeforeHydrated: hydratedAt === null ? null : kibUntil(figures, hydratedAt, 'Script'),
  }
}

function kibUntil(figures: VisitFigures, ms: number, type?: string) {
  return figures.responses
    .filter((r) => r.done <= ms && (type === undefined || r.type === type))
    .reduce((sum, r) => sum + r.kib, 0)
}
