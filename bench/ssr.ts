// Server-rendered pages per second: GETs of every page a visitor opens (the home page,
// /auctions, live auction pages, the static pages; /profile, /bid-history and /topup signed in),
// first with no bid load, then while people bid through the API in the background. The
// framework's floor is measured in the same run: a bare Remix app with the site's versions and
// routes (bench/bare.ts), its text route and its one-line document, before and after the site's
// phases. Each figure is printed as a multiple of one of them beside its goal: `/status.txt` (a
// Remix route answering one line of text without the layout) and bids (through the JSON API and
// as the auction page's button sends them with JavaScript) to the bare text route, `/status` (the
// layout with one line in it) and every page to the bare document. In the quiet phases the
// servers reach Postgres through a statement counter (pg-count.ts), so the figure "SQL
// statements per page" is exact; a live auction page should read Redis only. With `--content`,
// each page is also measured as its own content served by the bare app (bench/content.ts): what
// the framework alone spends on the same markup and data.
// `npm run bench:ssr [-- --seconds 3 --concurrency 16 --bid-rate 500 --logged-in --content]`.
import {
  biddersFor,
  latencyText,
  outcomeText,
  perSecond,
  runLoad,
  type LoadReport,
  type LoadSpec,
} from './load.ts'
import { startBareApp } from './bare.ts'
import { contentFloorLines, Floor, measureFloor, ratioLines, type Figure } from './floor.ts'
import { snapshotPage, type Snapshot } from './content.ts'
import { allKinds, bidPhases, FLOOR, type Kind } from './ssr-pages.ts'
import { statementLines, statementsBetween } from './pg-count.ts'
import { cpuText, loadWithCpu, serverCpuPerAnswer, startSite } from './site.ts'
import { benchArgs, fmt } from './support.ts'
import { root } from '../tests/setup/stack.ts'
import path from 'node:path'

const { numbers, values } = benchArgs(
  {
    seconds: 3,
    warmup: 1,
    concurrency: 16,
    auctions: 100,
    upcoming: 24,
    'bid-rate': 500,
  },
  {
    'cpu-prof': { type: 'string' },
    /** Each connection is a different person, logged in: no page is kept, each is rendered. */
    'logged-in': { type: 'boolean', default: false },
    /**
     * Only these pages (comma-separated: `/`, `/auctions`, `/auction/{slug}`), e.g. to profile
     * one; `bids` for the bid phases.
     */
    only: { type: 'string' },
    /** Skip the phase with bids in the background. */
    'no-bids': { type: 'boolean', default: false },
    /**
     * A folder with another build of the site (e.g. the code before a change, built there): a
     * server of it runs beside this one on the same data, and each page and bid phase is
     * measured on both, one after the other (without the phase with bids in the background).
     */
    compare: { type: 'string' },
    /** Each page beside its own content served by the bare app (bench/content.ts). */
    content: { type: 'boolean', default: false },
  },
)
const loggedIn = values['logged-in']
const TIMER_MS = 10_000
const PERIOD_MS = 1_050
const { warmup: warmupSeconds, concurrency, auctions: auctionCount, 'bid-rate': bidRate } = numbers
// A quiet phase must end before the auctions do: 10 s after the bid that opened the phase.
const quietSeconds = Math.min(numbers.seconds, (TIMER_MS - 3_000) / 1000 - warmupSeconds)
const busySeconds = numbers.seconds
const say = (line: string) => process.stdout.write(`${line}\n`)
const GOAL = '(goal >= 300 pages/s)'
const label = (text: string) => text.padEnd(20)

const only = values.only?.split(',').map((name) => name.trim())
const kinds = allKinds.filter(
  (kind) =>
    (!only || only.includes(kind.name) || kind.name === FLOOR) && (loggedIn || !kind.signedIn),
)
if (kinds.length === 0) throw new Error(`--only: none of ${allKinds.map((k) => k.name).join(', ')}`)
const compare = values.compare
const withBids = !values['no-bids'] && !compare
/** The servers measured: this build's, and the compared one's. */
const versions = [
  { server: 0, suffix: '' },
  ...(compare ? [{ server: 1, suffix: ` (${path.basename(path.resolve(compare))})` }] : []),
]
const withBidPhases = !only || only.includes('bids')

const backgroundBidders = biddersFor(bidRate, PERIOD_MS)
const bare = await startBareApp(say)
const floor = new Floor()
const floorLoad = { concurrency, warmupSeconds, seconds: quietSeconds }
// Before the site starts (its auctions end 10 s after they go live without a bid), and after it.
await measureFloor(bare, floor, floorLoad, say).catch(async (error: unknown) => {
  await bare.stop()
  throw error
})
const site = await startSite({
  name: 'ssr',
  // The background bidders, and one more person per auction to open each quiet phase.
  people: backgroundBidders + auctionCount,
  auctions: auctionCount,
  upcoming: numbers.upcoming,
  countStatements: true,
  cpuProfileDir: values['cpu-prof'],
  builds: compare ? [root, path.resolve(compare)] : undefined,
})
const counter = site.counter!
const openers = site.people.slice(backgroundBidders).map((person) => person.cookie)
const bidders = site.people.slice(0, backgroundBidders).map((person) => person.cookie)
const pageLoad = (kind: Kind, seconds: number, server = 0): LoadSpec => ({
  mode: 'pages',
  expect: 'ok',
  targets: [site.origins[server]!] as string[],
  paths: kind.paths(site),
  cookies: loggedIn ? openers : undefined,
  concurrency,
  warmupSeconds,
  seconds,
})
/** The bidders, each every PERIOD_MS on the next auction, never within 1 s of their last answer. */
const bidLoad = (via: 'api' | 'fetcher', server = 0) =>
  ({
    mode: 'bids',
    via,
    expect: 'bid',
    targets: [site.origins[server]!] as string[],
    cookies: bidders,
    auctions: site.auctions,
    periodMs: PERIOD_MS,
    minGapMs: 1_000,
  }) as const
const pageText = (report: LoadReport) =>
  `${fmt(perSecond(report.accepted, report))} pages/s  ${latencyText(report)}  ${fmt(report.bytes / Math.max(1, report.answered) / 1024, 1)} KiB gzip/page${
    report.answered > report.accepted ? `  failures: ${outcomeText(report)}` : ''
  }`

const lines: string[] = []
const figures: Figure[] = []
const snapshots: Snapshot[] = []
try {
  // Quiet: one bid on every auction restarts its 10 s timer, the outbox writes it, then only
  // pages are asked for, and every statement Postgres sees is a page's.
  const quiet: Array<{
    kind: Kind
    text: string
    perPage: string
    top: string[]
    cpu: string
  }> = []
  const open = async (round: number) => {
    const opened = await runLoad({
      mode: 'bids',
      via: 'api',
      expect: 'bid',
      targets: site.origins,
      cookies: openers,
      auctions: site.auctions,
      // One bid each, sent within 0.3 s; the window only waits for the answers.
      periodMs: 300,
      minGapMs: 60_000,
      turnOffset: round,
      concurrency,
      warmupSeconds: 0,
      seconds: 5,
    })
    if (opened.accepted < site.auctions.length)
      say(
        `note: ${opened.accepted} of ${site.auctions.length} opening bids accepted; refused: ${outcomeText(opened)}`,
      )
  }
  let round = 0
  for (const kind of kinds)
    for (const { server, suffix } of versions) {
      await open(round++)
      for (let i = 0; i < 30 && (await site.outboxLength()) > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 100))
      const name = `${kind.name}${suffix}`
      say(`${name}: pages for ${warmupSeconds + quietSeconds} s, no bid load...`)
      const before = counter.snapshot()
      const result = await loadWithCpu(site, pageLoad(kind, quietSeconds, server))
      const statements = statementsBetween(before, counter.snapshot())
      const pages = result.report.answeredAll
      quiet.push({
        kind: { ...kind, name },
        text: pageText(result.report),
        perPage: `${fmt(pages > 0 ? (statements.total + statements.inTransactions.total) / pages : 0, 2)}${kind.goalStatements}`,
        top: statementLines([...statements.rows, ...statements.inTransactions.rows], pages),
        cpu: cpuText(result),
      })
      figures.push({
        name,
        cpuPerAnswer: serverCpuPerAnswer(result, server),
        floor: kind.floor,
        // The pages' goals are a signed-in person's (others' may be kept, by their Cache-Control).
        goal: loggedIn || kind.name === FLOOR ? kind.goalRatio : undefined,
      })
      // One answer of the page while its auctions are live, for the content's floor.
      if (values.content && server === 0 && kind.floor === 'document' && kind.name !== '/status') {
        const cookie = loggedIn ? openers[0] : undefined
        snapshots.push(await snapshotPage(name, site.origins[0]!, kind.paths(site)[0]!, cookie))
      }
    }

  // Bids, a few hundred a second: each person every PERIOD_MS on the next auction.
  const bidLines: string[] = []
  const phases = (withBidPhases ? bidPhases : []).flatMap((phase) =>
    versions.map(({ server, suffix }) => ({ ...phase, server, name: `${phase.name}${suffix}` })),
  )
  for (const [round, phase] of phases.entries()) {
    say(`${phase.name}: bids for ${warmupSeconds + quietSeconds} s...`)
    const result = await loadWithCpu(site, {
      ...bidLoad(phase.via, phase.server),
      turnOffset: round * 7,
      concurrency,
      warmupSeconds,
      seconds: quietSeconds,
    })
    const { report } = result
    bidLines.push(
      `${label(phase.name)}${fmt(perSecond(report.accepted, report))} accepted/s  ${latencyText(report)}; rejects: ${outcomeText(report)}`,
      `${label('')}${cpuText(result)}`,
    )
    figures.push({
      name: phase.name,
      cpuPerAnswer: serverCpuPerAnswer(result, phase.server),
      floor: 'text',
      goal: phase.goalRatio,
    })
    // The 1 s rule counts from each person's last bid.
    await new Promise((resolve) => setTimeout(resolve, 1_100))
  }

  // Busy: the same pages while people bid through the API all along.
  const busy: string[] = []
  let bidsLine = ''
  if (withBids) {
    await open(kinds.length)
    const pagesSeconds = kinds.length * (warmupSeconds + busySeconds + 1)
    say(`bidding at ~${fmt(bidRate)}/s in the background for ${pagesSeconds + 2} s...`)
    const background = runLoad({
      ...bidLoad('api'),
      concurrency: 64,
      warmupSeconds: 2,
      seconds: pagesSeconds,
    })
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    for (const kind of kinds) {
      say(`${kind.name}: pages for ${warmupSeconds + busySeconds} s with the bid load...`)
      const result = await loadWithCpu(site, pageLoad(kind, busySeconds))
      busy.push(pageText(result.report))
    }
    const bids = await background
    bidsLine = `${fmt(perSecond(bids.accepted, bids))} accepted/s of ${fmt(bids.offered)}/s offered  ${latencyText(bids)}; rejects: ${outcomeText(bids)}`
  }
  await measureFloor(bare, floor, floorLoad, say)
  const contentLines = snapshots.length
    ? ['', ...(await contentFloorLines(snapshots, figures, floor, floorLoad, say, label))]
    : []

  lines.push(
    `${loggedIn ? 'logged-in GETs (a person per connection)' : 'anonymous GETs'} with gzip, ${concurrency} connections, ${auctionCount} live auctions and ${numbers.upcoming} upcoming; measured after ${warmupSeconds} s warm-up`,
    '',
    `no bid load (${quietSeconds} s each)`,
    ...quiet.flatMap((row) => [
      `${label(row.kind.name)}${row.text}   ${GOAL}`,
      `${label('')}${row.cpu}`,
    ]),
    ...bidLines,
    ...(withBids
      ? [
          '',
          `with bids in the background (${busySeconds} s each)`,
          ...kinds.map((kind, i) => `${label(kind.name)}${busy[i]}   ${GOAL}`),
          `${label('the bids')}${bidsLine}`,
        ]
      : []),
    '',
    `server CPU per answer as a multiple of the bare Remix app's (${bare.routes} routes, ${bare.pages} of them pages, as the site's; no bid load)`,
    ...floor.lines(label),
    ...ratioLines(floor, figures, label),
    ...contentLines,
    '',
    'SQL statements per page (no bid load, counted on the wire)',
    ...quiet.flatMap((row) => [
      `${label(row.kind.name)}${row.perPage}`,
      ...row.top.map((line) => `${label('')}${line}`),
    ]),
  )
} finally {
  await site.close()
  await bare.stop()
}
say(['', ...lines, ''].join('\n'))
