// Real-time fan-out of the production server: N Socket.IO viewers (in child processes, ~1,250
// sockets each) follow 100 live auctions, bids come in through the HTTP API at a steady rate,
// and every viewer records how long after the bid's acceptance (its Redis time, in the update's
// newest bids) the update reached it. Also the server's memory per idle connection, the
// largest audience that still holds the goal, and several instances sharing rooms through the
// Redis adapter.
//   npm run bench:fanout [-- --clients 5000 --rate 50 --seconds 10]
//   --find-max [--steps 5000,7500,...] [--resolution 1000] [--budget-minutes 20]  step the
//       audience up until it fails, then halve the gap between the last that held and the first
//       that failed down to --resolution viewers
//   --instances 2 (or 1,2 for both in one run) [--via direct|proxy]  viewers split over the
//       instances directly, or through bench/proxy.ts
//   --profile DIR  a CPU profile of each server while bids come in, summarized here
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { createRedis, Engine } from '../engine/index.ts'
import { ensureServices } from '../scripts/services.ts'
import { createPeople, createScenario, deleteKeys } from '../tests/setup/stack.ts'
import { describeRound, summaryTable, type Round } from './fanout-report.ts'
import { runRound } from './fanout-round.ts'
import { startStack, type FanoutOptions, type Setup } from './fanout-stack.ts'
import { benchArgs, fmt } from './support.ts'

const { numbers, values } = benchArgs(
  {
    clients: 5000,
    rate: 50,
    seconds: 10,
    auctions: 100,
    'per-process': 1250,
    concurrency: 200,
    resolution: 1000,
    'budget-minutes': 20,
  },
  {
    instances: { type: 'string', default: '1' },
    via: { type: 'string', default: 'direct' },
    'find-max': { type: 'boolean', default: false },
    steps: { type: 'string', default: '5000,7500,10000,15000,20000,30000,40000' },
    profile: { type: 'string' },
  },
)
const { rate, seconds, auctions: auctionCount, 'per-process': perProcess, concurrency } = numbers
const instanceCounts = values.instances.split(',').map(Number)
const viaProxy = values.via === 'proxy'
const findMax = values['find-max']
const budgetMs = numbers['budget-minutes'] * 60_000
const resolution = numbers.resolution
const profileDir = values.profile ? path.resolve(values.profile) : undefined
if (
  ![rate, seconds, auctionCount, perProcess, concurrency, resolution, ...instanceCounts].every(
    (n) => n > 0,
  )
)
  throw new Error(
    '--rate, --seconds, --auctions, --per-process, --concurrency, --resolution and --instances must be positive',
  )
if (!['direct', 'proxy'].includes(values.via)) throw new Error('--via is direct or proxy')

const say = (line: string) => process.stdout.write(`${line}\n`)
const options: FanoutOptions = {
  rate,
  seconds,
  auctionCount,
  perProcess,
  concurrency,
  viaProxy,
  profileDir,
}

/** The open-file limit this process and its children run with (the server's too). */
function openFileLimit() {
  const out = spawnSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim()
  return out === 'unlimited' ? Infinity : Number(out)
}

// --- the run ----------------------------------------------------------------------------------

/** The audiences to try: one, or the steps up to what the open-file limit allows. */
function audiences(instances: number, limit: number) {
  const wanted = findMax ? values.steps.split(',').map(Number) : [numbers.clients]
  // Each server holds one descriptor per viewer (the proxy two), besides its own few hundred.
  const perViewer = viaProxy && instances > 1 ? 2 : 1 / instances
  const cap = Math.floor((limit - 400) / perViewer / 500) * 500
  const steps = wanted.filter((n) => n <= cap)
  if (steps.length < wanted.length && findMax && !steps.includes(cap)) steps.push(cap)
  return { steps, cap }
}

const began = Date.now()
const limit = openFileLimit()
const services = await ensureServices()
const scenario = await createScenario('fanout', services.DATABASE_URL)
const redis = createRedis(services.REDIS_URL)
const rows: Array<Round & { instances: number }> = []
const notes: string[] = []
try {
  // A person is busy for the answer plus the 1 s rule: enough for answers of up to 3 s.
  const peopleCount = Math.ceil(rate * 4.1) + 10
  say(`open-file limit ${limit}; setting up ${peopleCount} bidders...`)
  const people = await createPeople(scenario.prisma, peopleCount)
  const engine = new Engine({ redis, prisma: scenario.prisma, prefix: scenario.prefix })
  await engine.loadScripts()
  const setup: Setup = {
    scenario,
    redisUrl: services.REDIS_URL,
    redis,
    engine,
    people,
    options,
  }
  if (profileDir) mkdirSync(profileDir, { recursive: true })

  for (const instances of instanceCounts) {
    const { steps, cap } = audiences(instances, limit)
    if (cap < Math.max(...steps, numbers.clients))
      notes.push(
        `${instances} instance(s): audiences capped at ${fmt(cap)} by the open-file limit ${limit}`,
      )
    let largest = 0
    let smallestFailed = Infinity
    let stopped = false
    const overBudget = () => {
      if (stopped || !findMax || !rows.length || Date.now() - began <= budgetMs) return stopped
      notes.push(`stopped stepping after ${numbers['budget-minutes']} minutes (--budget-minutes)`)
      return (stopped = true)
    }
    const tryAudience = async (clients: number) => {
      say(`\n${instances} instance(s), ${fmt(clients)} viewers:`)
      // Each round on fresh servers: nothing left over from the last one in their memory.
      const stack = await startStack(setup, instances)
      const round = await runRound(stack, clients).finally(stack.stop)
      rows.push({ ...round, instances })
      say(describeRound(round, instances, options))
      if (round.held) largest = Math.max(largest, clients)
      else smallestFailed = Math.min(smallestFailed, clients)
      return round.held
    }
    for (const clients of steps) {
      if (overBudget()) break
      if (!(await tryAudience(clients))) break
    }
    // Between the last step that held and the first that did not: halve the gap.
    while (findMax && largest && smallestFailed - largest > resolution && !overBudget()) {
      const middle = Math.round((largest + smallestFailed) / 2 / 100) * 100
      if (middle <= largest || middle >= smallestFailed) break
      await tryAudience(middle)
    }
    if (findMax)
      notes.push(
        `${instances} instance(s): largest audience that held: ${largest ? fmt(largest) : 'none tried held'}${smallestFailed < Infinity ? `; ${fmt(smallestFailed)} did not` : `; none tried failed (open-file limit ${limit})`}`,
      )
  }
  if (rows.length > 1) say(summaryTable(rows))
  for (const note of notes) say(note)
  say(
    `(figures from a machine shared with other work: viewers, bidders, Redis, Postgres and the server share ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} cores)`,
  )
} finally {
  await redis.quit()
  await deleteKeys(services.REDIS_URL, scenario.prefix)
  await scenario.cleanup()
  await services.stop()
}
