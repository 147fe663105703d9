// What one bid costs Redis, in CPU instructions, counted by valgrind's callgrind on a
// redis-server of its own: exact and repeatable whatever else the machine is doing, unlike
// bids per second. Next to it, in the same run, the cost of EVALSHA of a no-op script.
// `npm run bench:bid-cost [-- --bids 4000 --profile file]` (needs valgrind and redis-server).
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createRedis, Engine } from '../engine/index.ts'
import { freePort, sleep, waitFor } from '../tests/setup/stack.ts'
import { benchArgs, fmt, scratch } from './support.ts'

const { numbers, values } = benchArgs(
  { bids: 4000 },
  {
    /** Keep the bids' callgrind profile in this file, to read with callgrind_annotate. */
    profile: { type: 'string' },
  },
)
const bids = numbers.bids
const AUCTIONS = 100
const USERS = 2000

for (const tool of ['valgrind', 'redis-server']) {
  if (spawnSync('which', [tool]).status !== 0) {
    process.stderr.write(`bench:bid-cost needs ${tool} (Debian: apt-get install ${tool})\n`)
    process.exit(1)
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'pa-bid-cost-'))
const env = await scratch('bidcost')
const port = await freePort()
const out = path.join(dir, 'callgrind.out')
// Counting starts switched off; the driver switches it on around the measured calls only.
const server = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${out}`,
    'redis-server',
    '--port',
    String(port),
    '--save',
    '',
    '--appendonly',
    'no',
  ],
  { stdio: 'ignore' },
)
const control = (what: string) =>
  spawnSync('callgrind_control', [what, String(server.pid)], { stdio: 'ignore' })
/** Counts the instructions Redis runs for `work`. */
async function count(label: string, work: () => Promise<void>): Promise<number> {
  control('--instr=on')
  control('--zero')
  await work()
  spawnSync('callgrind_control', ['--dump=' + label, String(server.pid)], { stdio: 'ignore' })
  control('--instr=off')
  const files = spawnSync('sh', ['-c', `ls -t ${out}* | head -1`], { encoding: 'utf8' })
  const text = readFileSync(files.stdout.trim(), 'utf8')
  if (label === 'bids' && values.profile) copyFileSync(files.stdout.trim(), values.profile)
  return Number(/^summary: (\d+)/m.exec(text)?.[1] ?? 0)
}

const redis = createRedis(`redis://127.0.0.1:${port}`, {
  lazyConnect: true,
  maxRetriesPerRequest: 50,
})
// Refused connections while valgrind starts Redis are expected.
redis.on('error', () => {})
try {
  await waitFor(
    'redis-server under valgrind',
    async () => {
      await redis.connect().catch(() => {})
      return (await redis.ping()) === 'PONG'
    },
    60_000,
    500,
  )
  const users = Array.from({ length: USERS }, (_, i) => ({
    id: `cost-user-${i}`,
    username: `cost_${i}`,
    email: `cost_${i}@example.com`,
    bidBalance: 1_000_000,
  }))
  await env.prisma.user.createMany({ data: users })
  await env.prisma.auction.createMany({
    data: Array.from({ length: AUCTIONS }, (_, i) => ({
      id: `cost-auction-${i}`,
      displayId: `C-${i}`,
      slug: `cost-${i}`,
      title: `Cost ${i}`,
      retailPrice: 100_000,
      startTime: new Date(Date.now() - 1000),
    })),
  })
  const engine = new Engine({
    redis,
    prisma: env.prisma,
    prefix: env.prefix,
    timerMs: 3_600_000,
  })
  await engine.loadScripts()
  await engine.loadAllAuctions()
  await engine.sweep(1000)
  for (const user of users) await engine.loadUser(user.id)
  const noop = (await redis.script('LOAD', 'return 1')) as string

  // Bids one at a time, each user on its own auction turn, never the leader, never too fast.
  let accepted = 0
  const bidInstructions = await count('bids', async () => {
    for (let i = 0; i < bids; i++) {
      const result = await engine.bid(`cost-auction-${i % AUCTIONS}`, users[i % USERS]!.id)
      if (result.ok) accepted++
    }
  })
  const noopInstructions = await count('noop', async () => {
    for (let i = 0; i < bids; i++) await redis.evalsha(noop, 0)
  })

  const perBid = bidInstructions / bids
  const perNoop = noopInstructions / bids
  process.stdout.write(
    [
      '',
      `bids placed              ${fmt(accepted)} of ${fmt(bids)} (the rest refused: ${fmt(bids - accepted)})`,
      `redis instructions/bid   ${fmt(perBid)}  (whole command: read, script, reply)`,
      `redis instructions/no-op ${fmt(perNoop)}  (EVALSHA of 'return 1')`,
      `bid / no-op              ${fmt(perBid / perNoop, 2)} x`,
      '',
    ].join('\n'),
  )
} finally {
  await redis.quit().catch(() => {})
  server.kill('SIGTERM')
  await sleep(500)
  rmSync(dir, { recursive: true, force: true })
  await env.close()
}
