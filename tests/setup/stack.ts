// A whole stack for scenarios outside the unit tests (fault tests, benchmarks): a database and
// Redis prefix of their own, production servers to start and kill, people with signed session
// cookies, and auctions.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import net from 'node:net'
import path from 'node:path'
import { PrismaPg } from '@prisma/adapter-pg'
import { createCookie } from '@remix-run/node'
import { createRedis } from '../../engine/index.ts'
import { PrismaClient } from '../../prisma/generated/client.ts'
import { createDatabase, databaseUrl, dropDatabases } from './databases.ts'
import { removeKeys } from './redis-keys.ts'
import { SERVER_NODE_ARGS } from '../../scripts/node-args.ts'

export const root = path.resolve(import.meta.dirname, '../..')
export const SESSION_SECRET = 'stack-session-secret-stack-session-secret-0123'
/** Production serves `/metrics` only with a token. */
export const METRICS_TOKEN = 'stack-metrics-token-0123456789'
/** The 1 s rule allows one bid a second per person; a little more keeps them all legal. */
export const BID_EVERY_MS = 1_100
export const INITIAL_BALANCE = 1_000

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Polls until `check` returns something truthy; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check().catch(() => null)
    if (value) return value
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}

// --- one scenario's database and keys -------------------------------------------------------

export type Scenario = {
  name: string
  /** The scenario's own database, migrated. */
  databaseUrl: string
  prefix: string
  prisma: PrismaClient
  /** Drops the database; the caller removes its Redis keys (or its whole Redis). */
  cleanup: () => Promise<void>
}

export async function createScenario(name: string, baseUrl: string): Promise<Scenario> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const dbName = `pa_faults_${name}_${runId}`
  const url = databaseUrl(baseUrl, dbName)
  await createDatabase(baseUrl, dbName)
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'pipe',
  })
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) })
  return {
    name,
    databaseUrl: url,
    prefix: `f${name.slice(0, 6)}${runId}`,
    prisma,
    cleanup: async () => {
      await prisma.$disconnect()
      await dropDatabases(baseUrl, dbName)
    },
  }
}

export async function deleteKeys(redisUrl: string, prefix: string) {
  const redis = createRedis(redisUrl)
  try {
    await removeKeys(redis, prefix)
  } finally {
    await redis.quit()
  }
}

// --- production servers ---------------------------------------------------------------------

export type App = {
  url: string
  child: ChildProcess
  /** Set once the process has exited (code or signal). */
  exited: () => string | null
  /** The last lines it wrote, for a failure's diagnosis. */
  output: () => string
  stop: () => Promise<void>
}

export async function startApp(options: {
  databaseUrl: string
  redisUrl: string
  prefix: string
  label: string
  /** More environment for the server (overrides the defaults below). */
  env?: Record<string, string>
  /** Options for node itself, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[]
  /** The port to listen on (a restart behind a proxy keeps its address); a free one if unset. */
  port?: number
  /** The folder whose build/ to run (another version of the site, for a comparison); the repository's if unset. */
  cwd?: string
}): Promise<App> {
  const port = options.port ?? (await freePort())
  const url = `http://127.0.0.1:${port}`
  const args = [...SERVER_NODE_ARGS, ...(options.nodeArgs ?? []), 'build/server.js']
  const child = spawn('node', args, {
    cwd: options.cwd ?? root,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: options.prefix,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSION_SECRET,
      METRICS_TOKEN,
      // Production refuses the sandbox payment provider without a secret of its own.
      PAYMENT_SANDBOX_SECRET: 'faults-sandbox-secret-0123456789',
      PAYMENT_SANDBOX_DEMO: '1',
      LOG_LEVEL: process.env.STACK_LOG_LEVEL ?? 'warn',
      // Every bidder comes from 127.0.0.1 here.
      RATE_LIMIT_SCALE: '1000',
      // Production requires it; a proxy in front passes its own.
      PUBLIC_ORIGIN: url,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue
      lines.push(line)
      if (lines.length > 200) lines.shift()
      if (process.env.STACK_VERBOSE) process.stderr.write(`[${options.label}] ${line}\n`)
    }
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let exit: string | null = null
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = signal ? `signal ${signal}` : `code ${code}`
      resolve()
    })
  })
  const app: App = {
    url,
    child,
    exited: () => exit,
    output: () => lines.join('\n'),
    stop: async () => {
      if (exit) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exitedPromise
      clearTimeout(timer)
    },
  }
  try {
    // A server that stops at start (a bad environment, say) fails the wait at once.
    await Promise.race([
      waitFor(`${options.label} /readyz`, async () => (await fetch(`${url}/readyz`)).ok, 30_000),
      exitedPromise.then(() => {
        throw new Error(`${options.label} exited (${exit ?? ''})`)
      }),
    ])
  } catch (error) {
    await app.stop()
    throw new Error(`${options.label} did not become ready: ${String(error)}\n${app.output()}`)
  }
  return app
}

export async function readiness(app: App) {
  // Its checks and the outbox lag are shown to the bearer of the metrics token only.
  const response = await fetch(`${app.url}/readyz`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(5_000),
  })
  return {
    status: response.status,
    body: (await response.json()) as { redis: string; database: string; outboxLag: number | null },
  }
}

/** One gauge of the instance's `/metrics`. */
export async function metric(app: App, name: string): Promise<number | null> {
  return (await metrics(app, [name]))[name] ?? null
}

/**
 * Several gauges from one read of `/metrics` (a read resets some of them, such as the event
 * loop lag percentiles, so reading them one by one would not do).
 */
export async function metrics(app: App, names: string[]): Promise<Record<string, number | null>> {
  const response = await fetch(`${app.url}/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(3_000),
  })
  const lines = response.ok ? (await response.text()).split('\n') : []
  return Object.fromEntries(
    names.map((name) => {
      const line = lines.find((l) => l.startsWith(`${name} `))
      return [name, line ? Number(line.split(' ')[1]) : null]
    }),
  )
}

// --- people and auctions --------------------------------------------------------------------

export type Person = { id: string; username: string; cookie: string }

const sessionCookie = createCookie('__Host-session', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  secure: true,
  secrets: [SESSION_SECRET],
})

/**
 * People with INITIAL_BALANCE bids, each backed by a ledger row (so balance = ledger sum from
 * the start), and a signed session cookie for a Session row of theirs.
 */
export async function createPeople(prisma: PrismaClient, count: number): Promise<Person[]> {
  const people: Person[] = []
  for (let i = 0; i < count; i++) {
    const username = `fault${i}${randomBytes(3).toString('hex')}`
    const user = await prisma.user.create({
      data: {
        username,
        email: `${username}@mail.kg`,
        bidBalance: INITIAL_BALANCE,
        ledger: {
          create: {
            amount: INITIAL_BALANCE,
            balanceAfter: INITIAL_BALANCE,
            reason: 'seed',
            reference: `faults-seed:${username}`,
          },
        },
        sessions: {
          create: {
            id: randomBytes(24).toString('base64url'),
            expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
          },
        },
      },
      select: { id: true, sessions: { select: { id: true } } },
    })
    people.push({ id: user.id, username, cookie: await cookieFor(user.sessions[0]!.id) })
  }
  return people
}

/** The `__Host-session=…` pair a browser would send for this Session row. */
export async function cookieFor(sessionId: string): Promise<string> {
  return (await sessionCookie.serialize(sessionId)).split(';')[0]!
}

/** createPeople for thousands: the same kind of people, written a thousand at a time. */
export async function createManyPeople(prisma: PrismaClient, count: number): Promise<Person[]> {
  const tag = randomBytes(3).toString('hex')
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000)
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `many-${tag}-${i}`,
    username: `many${i}${tag}`,
    session: randomBytes(24).toString('base64url'),
  }))
  for (let i = 0; i < rows.length; i += 1000) {
    const batch = rows.slice(i, i + 1000)
    await prisma.$transaction([
      prisma.user.createMany({
        data: batch.map(({ id, username }) => ({
          id,
          username,
          email: `${username}@mail.kg`,
          bidBalance: INITIAL_BALANCE,
        })),
      }),
      prisma.balanceLedger.createMany({
        data: batch.map(({ id, username }) => ({
          userId: id,
          amount: INITIAL_BALANCE,
          balanceAfter: INITIAL_BALANCE,
          reason: 'seed' as const,
          reference: `faults-seed:${username}`,
        })),
      }),
      prisma.session.createMany({
        data: batch.map(({ id, session }) => ({ id: session, userId: id, expiresAt })),
      }),
    ])
  }
  return Promise.all(
    rows.map(async ({ id, username, session }) => ({
      id,
      username,
      cookie: await cookieFor(session),
    })),
  )
}

/** Auctions in Postgres that start `startsInMs` from now; a server starting up loads them. */
export async function createAuctions(prisma: PrismaClient, count: number, startsInMs = 500) {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const tag = randomBytes(3).toString('hex').toUpperCase()
    const auction = await prisma.auction.create({
      data: {
        displayId: `F${tag}`,
        slug: `faults-${tag.toLowerCase()}`,
        title: `Лот ${tag}`,
        retailPrice: 10_000_00,
        startTime: new Date(Date.now() + startsInMs),
      },
      select: { id: true },
    })
    ids.push(auction.id)
  }
  return ids
}
