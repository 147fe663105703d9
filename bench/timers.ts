// Timer precision and settlement on the production server under bid load: auctions finish
// 10 s after their last bid while others are bid on without pause. For each finish: how long
// after its deadline the sweeper closed it (never before), whether any bid was accepted after
// the deadline, and how long until Postgres shows the auction finished.
// `npm run bench:timers [-- --seconds 40 --finishing 60 --busy 40 --rate 300]`.
import { createRedis, keysOf } from '../engine/index.ts'
import { ensureServices } from '../scripts/services.ts'
import {
  createAuctions,
  createPeople,
  createScenario,
  deleteKeys,
  sleep,
  startApp,
  waitFor,
} from '../tests/setup/stack.ts'
import { benchArgs, fmt, percentile } from './support.ts'

const { numbers } = benchArgs({
  seconds: 40,
  finishing: 60,
  busy: 40,
  rate: 300,
})
const { seconds, finishing: finishingCount, busy: busyCount, rate } = numbers
const TIMER_MS = 10_000

const services = await ensureServices()
const scenario = await createScenario('timers', services.DATABASE_URL)
const redis = createRedis(services.REDIS_URL)
let app: Awaited<ReturnType<typeof startApp>> | undefined
try {
  // Each person bids at most once a second (the 1 s rule), so the rate needs this many.
  const peopleCount = Math.ceil(rate * 1.3) + 10
  process.stdout.write(
    `setting up ${peopleCount} people and ${finishingCount + busyCount} auctions...\n`,
  )
  const people = await createPeople(scenario.prisma, peopleCount)
  const auctions = await createAuctions(scenario.prisma, finishingCount + busyCount, 3_000)
  const finishing = auctions.slice(0, finishingCount)
  const busy = auctions.slice(finishingCount)
  app = await startApp({
    databaseUrl: scenario.databaseUrl,
    redisUrl: services.REDIS_URL,
    prefix: scenario.prefix,
    label: 'web',
  })
  const base = app.url
  const auctionKey = (id: string) => keysOf(scenario.prefix).auction(id)
  await waitFor(
    'the auctions to start',
    async () => (await redis.hget(auctionKey(auctions.at(-1)!), 'status')) === 'live',
    15_000,
    100,
  )

  // A finishing auction is bid on until its own moment within the first 60 % of the run, then
  // left alone: it finishes 10 s later, while the busy ones keep the bid load up.
  const began = Date.now()
  const stopBidding = new Map(
    finishing.map((id, i) => [id, began + ((i + 1) / finishing.length) * seconds * 600]),
  )
  const outcomes: Record<string, number> = {}
  let accepted = 0
  let running = true
  const interval = 1000 / rate
  let next = 0
  const bidder = async (index: number) => {
    const person = people[index]!
    for (let turn = index; running; turn++) {
      const now = Date.now()
      const open = [...busy, ...finishing.filter((id) => stopBidding.get(id)! > now)]
      const auctionId = open[turn % open.length]!
      const response = await fetch(`${base}/api/auctions/${auctionId}/bid`, {
        method: 'POST',
        headers: { Cookie: person.cookie, Origin: base, 'Accept-Language': 'en' },
      }).catch(() => null)
      const body = response
        ? ((await response.json().catch(() => ({}))) as { ok?: boolean; error?: string })
        : { error: 'network' }
      if (body.ok) accepted++
      else {
        const key = `${response?.status ?? 'network'} ${body.error ?? ''}`.trim()
        outcomes[key] = (outcomes[key] ?? 0) + 1
      }
      // Each person waits its turn (together they offer `rate` bids per second), counted from
      // the answer, so a slow answer never brings the next bid within the 1 s rule.
      await sleep(Math.max(1_050, people.length * interval - (Date.now() - now)))
    }
  }
  process.stdout.write(`bidding at ~${rate}/s for ${seconds} s; auctions finish as bids stop...\n`)
  const loops = people.map(async (_, i) => {
    next += interval
    await sleep(next % 1_050)
    await bidder(i)
  })

  // Watch Postgres for each finish as it lands (settlement), until every finishing one has.
  const settledAt = new Map<string, number>()
  const watchUntil = began + seconds * 1000 + TIMER_MS + 10_000
  while (settledAt.size < finishing.length && Date.now() < watchUntil) {
    if (Date.now() > began + seconds * 1000) running = false
    const rows = await scenario.prisma.auction.findMany({
      where: { id: { in: finishing }, status: 'finished' },
      select: { id: true },
    })
    const seen = Date.now()
    for (const row of rows) if (!settledAt.has(row.id)) settledAt.set(row.id, seen)
    await sleep(20)
  }
  running = false
  await Promise.all(loops)
  const elapsed = (Date.now() - began) / 1000

  const lateness: number[] = []
  const settlement: number[] = []
  let early = 0
  let unfinished = 0
  for (const id of finishing) {
    const [status, ended, finishedAt] = await redis.hmget(
      auctionKey(id),
      'status',
      'ended',
      'finishedAt',
    )
    if (status !== 'finished' || !ended || !finishedAt) {
      unfinished++
      continue
    }
    const late = Number(finishedAt) - Number(ended)
    if (late < 0) early++
    lateness.push(late)
    const settled = settledAt.get(id)
    if (settled) settlement.push(settled - Number(finishedAt))
  }
  lateness.sort((a, b) => a - b)
  settlement.sort((a, b) => a - b)

  // Every bid Postgres holds for a finished auction was placed before its deadline.
  const outbox = keysOf(scenario.prefix).outbox
  await waitFor('the outbox to drain', async () => (await redis.xlen(outbox)) === 0, 30_000, 200)
  const [{ late: lateBids }] = await scenario.prisma.$queryRaw<[{ late: bigint }]>`
    SELECT count(*) AS late FROM "Bid" b JOIN "Auction" a ON a.id = b."auctionId"
    WHERE a.status = 'finished' AND b."createdAt" >= a."endTime"`
  const bidsAfter = Number(lateBids)

  const ms = (n: number) => `${fmt(n)} ms`
  process.stdout.write(
    [
      '',
      `bid load                 ${fmt(accepted / elapsed)} accepted bids/s over ${fmt(elapsed, 1)} s; refused: ${JSON.stringify(outcomes)}`,
      `auctions finished        ${lateness.length} of ${finishing.length}${unfinished ? ` (${unfinished} not finished)` : ''}`,
      `finish - deadline        p50 ${ms(percentile(lateness, 50))}  p99 ${ms(percentile(lateness, 99))}  max ${ms(lateness.at(-1) ?? 0)}   (goal p99 <= 150 ms)`,
      `finished early           ${early}   (goal 0)`,
      `bids after the deadline  ${bidsAfter}   (goal 0)`,
      `settlement (to Postgres) p50 ${ms(percentile(settlement, 50))}  p99 ${ms(percentile(settlement, 99))}  max ${ms(settlement.at(-1) ?? 0)}   (goal p99 <= 2,000 ms)`,
      '',
    ].join('\n'),
  )
} finally {
  await app?.stop()
  await redis.quit()
  await deleteKeys(services.REDIS_URL, scenario.prefix)
  await scenario.cleanup()
  await services.stop()
}
