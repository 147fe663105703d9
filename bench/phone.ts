// A phone on Slow 3G: Debian's Chromium (tests/e2e/chromium.ts) with the DevTools protocol's own
// throttling (400 ms round trip, 50 KB/s down and up, the CPU slowed 4x) and a phone's screen
// opens the home page and a live auction page, signed in, with an empty cache, with and without
// JavaScript: first paint (the browser's paint timing), hydrated (the signal the browser tests
// wait for) and a bid placed (from navigation start until "bid accepted" is on the page), the
// button pressed once the page has hydrated (JavaScript on) and as soon as it shows (before
// hydration that is the form's own post, as without JavaScript). Each figure beside its goal. The auctions have product pictures (prisma/seed-pictures) and
// other people keep them going. `npm run bench:phone [-- --runs 2 --live 6]`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import sharp from 'sharp'
import { storeProductImage } from '../app/services/images/product-image.server.ts'
import { folderStore } from '../app/services/images/store.server.ts'
import { SEED_PICTURES } from '../prisma/seed-pictures/index.ts'
import { launchChromium, phone } from '../tests/e2e/chromium.ts'
import { root } from '../tests/setup/stack.ts'
import { visit, type Visit, type VisitFigures } from './phone-browser.ts'
import { responseLines, tableLines, type Run } from './phone-report.ts'
import { startSite, type Site } from './site.ts'
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

const dataDir = mkdtempSync(path.join(tmpdir(), 'pa-bench-phone-'))
/** Live auctions, and two people per auction who take turns bidding on it every few seconds. */
const KEEPERS_PER_AUCTION = 2
const site = await startSite({
  name: 'phone',
  people: numbers.live * KEEPERS_PER_AUCTION + 1,
  auctions: numbers.live,
  upcoming: numbers.upcoming,
  env: { DATA_DIR: dataDir },
  builds: values.build ? [path.resolve(values.build)] : undefined,
  // Every auction gets a picture, as an admin's upload would keep it.
  async prepare(prisma) {
    const store = folderStore(path.join(dataDir, 'images'))
    const files = Object.values(SEED_PICTURES)
    const auctions = await prisma.auction.findMany({ select: { id: true } })
    for (const [i, { id }] of auctions.entries()) {
      const svg = await readFile(path.join(root, 'prisma/seed-pictures', files[i % files.length]!))
      const { imageUrl } = await storeProductImage(await sharp(svg).png().toBuffer(), store)
      await prisma.auction.update({ where: { id }, data: { imageUrl } })
    }
  },
})
const [person, ...keepers] = site.people
let keeping = true
/** Each auction gets a bid every 3 s or so, by one of its two people in turn (the leader may not). */
const keeper = (async () => {
  for (let turn = 0; keeping; turn++) {
    await Promise.all(
      site.auctions.map((auction, i) =>
        bid(site, auction.id, keepers[i * KEEPERS_PER_AUCTION + (turn % KEEPERS_PER_AUCTION)]!),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_500))
  }
})()

const rows: Array<{ name: string; runs: Run[] }> = []
let browser: Browser | undefined
try {
  browser = await launchChromium()
  const cases = [
    { name: 'home page', path: '/' },
    { name: 'auction page', path: `/auction/${site.auctions[0]!.slug}` },
  ]
  // A server that has just started compiles as it goes: each page is rendered a few times first.
  for (const { path: pagePath } of cases)
    for (let i = 0; i < 20; i++)
      await fetch(`${site.origins[0]}${pagePath}`, {
        headers: { Cookie: person!.cookie, 'Accept-Encoding': 'gzip' },
      }).then((response) => response.arrayBuffer())
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
            cookie: person!.cookie,
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
          hydrated: measured.hydrated?.hydrated ?? null,
          bidHydrated: measured.hydrated?.bid ?? null,
          bidShown: measured.shown?.bid ?? null,
          kib: first.kib,
          kibBeforeHydrated: hydratedAt === null ? null : kibUntil(first, hydratedAt),
        })
      }
      rows.push(row)
    }
} finally {
  keeping = false
  await keeper
  await browser?.close()
  await site.close()
  rmSync(dataDir, { recursive: true, force: true })
}

say(
  [
    '',
    `a phone (${phone.viewport.width}x${phone.viewport.height}) on Chromium: ${numbers.rtt} ms round trip, ${numbers.kbps} KB/s down and up, CPU ${numbers.cpu}x slower; signed in, empty cache; ${numbers.runs} run(s) each`,
    ...tableLines(rows, throttle),
    '',
  ].join('\n'),
)

/** KiB received by `ms` after the first request (about navigation start). */
function kibUntil(figures: VisitFigures, ms: number) {
  return figures.responses.filter((r) => r.done <= ms).reduce((sum, r) => sum + r.kib, 0)
}

/** A bid through the JSON API, as one of the people who keep the auctions going: the answer. */
async function bid(site: Site, auctionId: string, who: { cookie: string }) {
  const origin = site.origins[0]!
  return fetch(`${origin}/api/auctions/${encodeURIComponent(auctionId)}/bid`, {
    method: 'POST',
    headers: { Cookie: who.cookie, Origin: origin },
  }).then(
    (response) => response.json() as Promise<{ ok?: boolean; error?: string }>,
    () => ({ ok: false }),
  )
}

/**
 * Before a visit: the person measured leads no auction (the page would not let them bid), each
 * auction's keepers bid in turn until one is taken, waiting out the 1 s rule.
 */
async function takeTheLead() {
  await Promise.all(
    site.auctions.map(async (auction, i) => {
      for (let attempt = 0; attempt < 8; attempt++) {
        const who = keepers[i * KEEPERS_PER_AUCTION + (attempt % KEEPERS_PER_AUCTION)]!
        if ((await bid(site, auction.id, who)).ok) return
        await new Promise((resolve) => setTimeout(resolve, 300))
      }
    }),
  )
}
