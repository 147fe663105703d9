// A phone on Slow 3G: Debian's Chromium (tests/e2e/chromium.ts) with the DevTools protocol's own
// throttling (400 ms round trip, 50 KB/s down and up, the CPU slowed 4x) and a phone's screen
// opens the home page and a live auction page, signed in, with an empty cache, with and without
// JavaScript: first paint (the browser's paint timing), hydrated (the signal the browser tests
// wait for) and a bid placed (from navigation start until "bid accepted" is on the page; with
// JavaScript the button is pressed once the page has hydrated, without it once it has loaded).
// Each figure beside its goal. The auctions have product pictures (prisma/seed-pictures) and
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
import { visit, type VisitFigures } from './phone-browser.ts'
import { startSite, type Site } from './site.ts'
import { benchArgs, fmt } from './support.ts'

const { numbers } = benchArgs({ runs: 1, live: 6, upcoming: 6, rtt: 400, kbps: 50, cpu: 4 })
const say = (line: string) => process.stdout.write(`${line}\n`)
const throttle = { rttMs: numbers.rtt, kbps: numbers.kbps, cpu: numbers.cpu }
const GOALS = { paint: 1_500, hydrated: 4_500, bid: 5_000 }
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

const rows: Array<{ name: string; figures: VisitFigures[] }> = []
let browser: Browser | undefined
try {
  browser = await launchChromium()
  const cases = [
    { name: 'home page', path: '/' },
    { name: 'auction page', path: `/auction/${site.auctions[0]!.slug}` },
  ]
  for (const { name, path: pagePath } of cases)
    for (const javaScript of [true, false]) {
      const row = {
        name: `${name}, JavaScript ${javaScript ? 'on' : 'off'}`,
        figures: [] as VisitFigures[],
      }
      for (let run = 0; run < numbers.runs; run++) {
        say(`${row.name}: run ${run + 1}...`)
        const figures = await visit(browser, throttle, {
          origin: site.origins[0]!,
          path: pagePath,
          javaScript,
          cookie: person!.cookie,
          bidButton: texts.auction.bidButton,
          bidPlaced: texts.bidding.bidPlaced,
        })
        if (figures.note) say(`  ${figures.note}`)
        row.figures.push(figures)
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

const column = (text: string, width = 22) => text.padEnd(width)
/** Each run's figure in seconds, and whether the slowest met the goal. */
const seconds = (values: Array<number | null>, goal: number) => {
  if (values.every((value) => value === null)) return column('n/a')
  const each = values.map((value) => (value === null ? '?' : fmt(value / 1000, 2))).join(' / ')
  const met = values.every((value) => value !== null && value <= goal)
  return column(`${each} s ${met ? '(met)' : '(not met)'}`)
}
/** KiB received, by resource type, of the first run. */
const weights = (kib: Record<string, number>) =>
  Object.entries(kib)
    .sort((a, b) => b[1] - a[1])
    .map(([type, size]) => `${type} ${fmt(size, 1)}`)
    .join(', ')
say(
  [
    '',
    `a phone (${phone.viewport.width}x${phone.viewport.height}) on Chromium: ${numbers.rtt} ms round trip, ${numbers.kbps} KB/s down and up, CPU ${numbers.cpu}x slower; signed in, empty cache; ${numbers.runs} run(s) each`,
    `${column('', 30)}${column('first paint')}${column('hydrated')}bid placed`,
    `${column('goal', 30)}${column(`<= ${GOALS.paint / 1000} s`)}${column(`<= ${GOALS.hydrated / 1000} s`)}<= ${GOALS.bid / 1000} s`,
    ...rows.flatMap(({ name, figures }) => [
      `${column(name, 30)}${seconds(
        figures.map((f) => f.paint),
        GOALS.paint,
      )}${seconds(
        figures.map((f) => f.hydrated),
        GOALS.hydrated,
      )}${seconds(
        figures.map((f) => f.bid),
        GOALS.bid,
      )}`,
      `${column('', 30)}KiB received: ${weights(figures[0]?.kib ?? {})}`,
    ]),
    '',
  ].join('\n'),
)

/** A bid through the JSON API, as one of the people who keep the auctions going. */
async function bid(site: Site, auctionId: string, who: { cookie: string }) {
  const origin = site.origins[0]!
  await fetch(`${origin}/api/auctions/${encodeURIComponent(auctionId)}/bid`, {
    method: 'POST',
    headers: { Cookie: who.cookie, Origin: origin },
  }).then(
    (response) => response.arrayBuffer(),
    () => null,
  )
}
