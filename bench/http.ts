// Bids per second through the production server: thousands of logged-in people (real sessions,
// the Origin header, the Lua engine) bid on live auctions, first through the JSON API, then
// through the bid button's form as a browser without JavaScript sends it (answered with a
// redirect and a toast), then as the button sends it with JavaScript (a fetcher's post, answered
// with the action's data). Each prints its server CPU per bid as a multiple of the API's. Next to
// it, the same load generator against a bare Express hello-world. `npm run bench:http [-- --seconds 10 --users 3000 --instances 2 --proxy --watchers 1]`.
import { latencyText, outcomeText, perSecond, runLoad, type LoadReport } from './load.ts'
import { statementLines, statementsBetween } from './pg-count.ts'
import { startProxy } from './proxy.ts'
import { cpuText, loadWithCpu, startHello, startSite } from './site.ts'
import { benchArgs, fmt, percentile } from './support.ts'
import { connectViewers } from './viewers.ts'

const { numbers, values } = benchArgs(
  {
    seconds: 10,
    warmup: 2,
    users: 3000,
    auctions: 100,
    concurrency: 128,
    period: 1050,
    instances: 1,
    /**
     * Socket.IO viewers following each auction (child processes): every accepted bid's update
     * is then built and sent, as on a site where people watch the auctions they bid on. 0: none
     * (an update nobody can receive is not built).
     */
    watchers: 1,
  },
  {
    /** With several instances: through one round-robin TCP proxy instead of directly. */
    proxy: { type: 'boolean', default: false },
    /** api, form, fetcher, or several joined by commas; all: each of them. */
    via: { type: 'string', default: 'all' },
    /** A folder for the servers' CPU profiles (summarize them with bench/profile.ts). */
    'cpu-prof': { type: 'string' },
    /** Count the servers' SQL statements on the wire (through a proxy: a little slower). */
    statements: { type: 'boolean', default: false },
  },
)
const {
  seconds,
  warmup: warmupSeconds,
  users,
  concurrency,
  period: periodMs,
  instances,
  watchers,
} = numbers
const wanted = values.via.split(',')
const phases = (['api', 'form', 'fetcher'] as const).filter(
  (via) => wanted.includes(via) || wanted.includes('all'),
)
if (phases.length === 0) throw new Error('--via is api, form, fetcher or all')

const GOAL = '(goal >= 2,000 accepted/s, p99 <= 50 ms)'
const common = { concurrency, warmupSeconds, seconds } as const
const lines: string[] = []
const say = (line: string) => process.stdout.write(`${line}\n`)
const label = (text: string) => text.padEnd(30)
const rate = (count: number, report: LoadReport) => fmt(perSecond(count, report))

const site = await startSite({
  name: 'http',
  people: users,
  auctions: numbers.auctions,
  instances,
  cpuProfileDir: values['cpu-prof'],
  countStatements: values.statements,
})
try {
  const proxy = values.proxy ? await startProxy(site.origins) : undefined
  const auctionIds = site.auctions.map((auction) => auction.id)
  const viewers =
    watchers > 0
      ? await connectViewers(
          watchers * auctionIds.length,
          proxy ? [proxy.url] : site.origins,
          auctionIds,
        )
      : undefined
  try {
    const where = `${instances} server${instances > 1 ? 's' : ''}${proxy ? ' behind a TCP proxy' : ''}`
    lines.push(
      `${fmt(users)} people bidding on ${site.auctions.length} live auctions, ${where}; ${seconds} s measured after ${warmupSeconds} s warm-up`,
      viewers
        ? `${fmt(viewers.joined)} Socket.IO viewers follow them (${fmt(watchers)} per auction): every accepted bid's update is built and sent`
        : 'nobody follows the auctions in real time: no update is built',
      '',
    )
    let turnOffset = 0
    let acceptedSoFar = 0
    /** Server CPU per bid of each phase, for the ratios to the API's. */
    const cpuPerBid: Partial<Record<'api' | 'form' | 'fetcher', number>> = {}
    for (const via of phases) {
      const name = {
        api: 'POST /api/auctions/{id}/bid',
        form: 'bid form POST (redirect)',
        fetcher: 'bid fetcher POST (.data)',
      }[via]
      say(`bidding through ${name} for ${warmupSeconds + seconds} s...`)
      const before = site.counter?.snapshot()
      const result = await loadWithCpu(site, {
        ...common,
        expect: 'bid',
        mode: 'bids',
        via,
        targets: proxy ? [proxy.url] : site.origins,
        cookies: site.people.map((person) => person.cookie),
        auctions: site.auctions,
        periodMs,
        minGapMs: 1_000,
        turnOffset,
      })
      // The next phase's bidders go on with the auction after the one they bid on last, roughly.
      turnOffset += Math.floor(((warmupSeconds + seconds) * 1000) / periodMs) + 1
      const { report } = result
      acceptedSoFar += report.acceptedAll
      lines.push(
        `${label(name)}${rate(report.accepted, report)} accepted bids/s  ${latencyText(report)}   ${GOAL}`,
        `${label('')}offered ${fmt(report.offered)}/s, sent ${rate(report.sent, report)}/s, send lag p99 ${fmt(percentile(report.lags, 99))} ms`,
        `${label('')}Postgres holds ${fmt(await site.persistedBids())} of the ${fmt(acceptedSoFar)} bids accepted so far; the outbox has ${fmt(await site.outboxLength())} entries to write`,
        `${label('')}rejects: ${outcomeText(report)}`,
        `${label('')}${cpuText(result)}`,
      )
      if (result.used.servers !== null && report.answeredAll > 0)
        cpuPerBid[via] = result.used.servers / report.answeredAll
      const api = cpuPerBid.api
      const own = cpuPerBid[via]
      if (via !== 'api' && api !== undefined && own !== undefined) {
        const goal = via === 'fetcher' ? 2 : 4
        lines.push(
          `${label('')}server CPU per bid = ${fmt(own / api, 2)}x the API's   (goal <= ${goal}x)`,
        )
      }
      if (site.counter && before) {
        const statements = statementsBetween(before, site.counter.snapshot())
        const { answeredAll } = result.report
        const batches = statements.inTransactions
        lines.push(
          `${label('')}SQL statements per request: ${fmt(statements.total / Math.max(1, answeredAll), 2)}, most frequent:`,
          ...statementLines(statements.rows, answeredAll).map((line) => `${label('')}${line}`),
          `${label('')}and in ${fmt(batches.transactions)} transactions (the outbox): ${fmt(batches.total)} statements, ${fmt(batches.total / Math.max(1, answeredAll), 2)} per request; most frequent:`,
          ...statementLines(batches.rows, answeredAll, 3).map((line) => `${label('')}${line}`),
        )
      }
    }
    if (viewers) {
      const reports = await viewers.reports()
      const latencies = reports.flatMap((report) => report.latencies).sort((a, b) => a - b)
      const updates = reports.reduce((sum, report) => sum + report.bidUpdates, 0)
      lines.push(
        `${label('viewers')}${fmt(updates)} updates with new bids received in all phases; bid to receipt p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms`,
      )
    }
    // How fast the outbox writes to Postgres once nothing else is going on.
    const drain = await site.drainOutbox(60_000)
    lines.push(
      `${label('outbox after the load')}${fmt(drain.entries)} entries ${drain.left ? `not all written in ${fmt(drain.seconds)} s (${fmt(drain.left)} left)` : `written in ${fmt(drain.seconds, 1)} s`}: ${fmt((drain.entries - drain.left) / Math.max(0.1, drain.seconds))}/s`,
    )
  } finally {
    await viewers?.close()
    await proxy?.close()
  }
} finally {
  await site.close()
}

// The reference: the same generator, the same schedule, against nothing but Express.
const hello = await startHello()
try {
  say('the same load against a bare Express hello-world...')
  const schedule = await runLoad({
    ...common,
    expect: 'ok',
    mode: 'bids',
    via: 'api',
    targets: [hello.url],
    cookies: Array.from({ length: users }, () => 'none=1'),
    auctions: [{ id: 'x', slug: 'x' }],
    periodMs,
    minGapMs: 1_000,
  })
  const flat = await runLoad({
    ...common,
    expect: 'ok',
    mode: 'pages',
    targets: [hello.url],
    paths: ['/'],
  })
  const generator = (report: LoadReport) =>
    `load generator CPU ${fmt(report.cpuMs / Math.max(1, report.answered), 2)} ms per request`
  lines.push(
    '',
    `${label('Express hello, same schedule')}${rate(schedule.accepted, schedule)} req/s  ${latencyText(schedule)}   (offered ${fmt(schedule.offered)}/s; failures: ${outcomeText(schedule)})`,
    `${label('')}${generator(schedule)}`,
    `${label(`Express hello, ${concurrency} loops`)}${rate(flat.accepted, flat)} req/s  ${latencyText(flat)}   (as fast as Express and the generator go together)`,
    `${label('')}${generator(flat)}`,
  )
} finally {
  await hello.stop()
}
say(['', ...lines, ''].join('\n'))
