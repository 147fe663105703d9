import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { ensureServices, type LocalServices } from '../../scripts/services.ts'
import { createDatabase, databaseUrl, dropDatabases } from '../setup/databases.ts'
import { deleteKeys, freePort, METRICS_TOKEN } from '../setup/stack.ts'
import { SERVER_NODE_ARGS } from '../../scripts/node-args.ts'
import { cpuGroup, CPU_GROUP_ENV, inGroup, SERVER_GROUP } from '../../scripts/cpu-time.ts'
import { SESSION_SECRET, SESSION_SECRET_PREVIOUS, VAPID } from './secrets.ts'
import { startAlertFakes } from '../support/alert-fakes.ts'
import { setBotWebhook, WEBHOOK_PATH } from '../../scripts/telegram-webhook.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    e2eDatabaseUrl: string
    e2eRedisUrl: string
    e2eRedisPrefix: string
    /** The control service of the fake Telegram and push service (tests/e2e/alert-fakes.ts). */
    alertFakesUrl: string
  }
}

const root = path.resolve(import.meta.dirname, '../..')

async function waitReady(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${url}/readyz`)
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`the server was not ready within ${timeoutMs} ms`)
}

/** Seeds a database of its own and starts the production build on a free port. */
export default async function setup(project: TestProject) {
  if (!existsSync(path.join(root, 'build/server.js'))) {
    throw new Error('No production build: run `npm run build` first (npm test does).')
  }
  let services: LocalServices | undefined
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) services = await ensureServices()
  const baseDbUrl = process.env.DATABASE_URL ?? services!.DATABASE_URL
  const redisUrl = process.env.REDIS_URL ?? services!.REDIS_URL
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`
  const dbName = `pa_e2e_${runId}`
  const dbUrl = databaseUrl(baseDbUrl, dbName)
  const redisPrefix = `e${runId}`
  await createDatabase(baseDbUrl, dbName)
  const env = {
    ...process.env,
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
  }
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: root,
    env,
    stdio: 'pipe',
  })
  execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['prisma/seed.ts'], {
    cwd: root,
    env,
    stdio: 'pipe',
  })

  // The alert providers, faked: only a person who links a chat or subscribes a device gets
  // anything from them, so the files that do neither see nothing.
  const fakes = await startAlertFakes()

  const port = await freePort()
  const baseUrl = `http://localhost:${port}`
  // Under `npm test` the server's CPU is counted in a group of its own (scripts/cpu-time.ts).
  const serverGroup = cpuGroup(process.env[CPU_GROUP_ENV]).sub(SERVER_GROUP)
  const [file, args] = inGroup(serverGroup, 'node', [...SERVER_NODE_ARGS, 'build/server.js'])
  const server = spawn(file, args, {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: baseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSION_SECRET,
      SESSION_SECRET_PREVIOUS,
      METRICS_TOKEN,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Many accounts come from one address here; the limits themselves are tested separately.
      RATE_LIMIT_SCALE: '20',
      // Every account of the run registers from 127.0.0.1 and is expected to get its free bids;
      // the daily cap is tested in app/services/registration.server.test.ts.
      FREE_BIDS_PER_ADDRESS: '100000',
      // Several test files' browsers at once, every page with its live connection, all from
      // 127.0.0.1; the cap itself is tested on a server of its own (socket-limits.e2e.ts).
      SOCKETS_PER_ADDRESS: '100000',
      // The tag manager is configured; tests check it loads only with analytics consent.
      GTM_ID: 'GTM-E2ETEST',
      PAYMENT_SANDBOX_SECRET: 'e2e-payment-sandbox-secret-0123456789',
      PAYMENT_SANDBOX_DEMO: '1',
      ...VAPID,
      ...fakes.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await waitReady(baseUrl, server, 30_000)
  // As the operator does (docs/operations.md#telegram-bot): the bot's webhook is the site's.
  await setBotWebhook(
    {
      token: fakes.env.TELEGRAM_BOT_TOKEN,
      username: fakes.env.TELEGRAM_BOT_USERNAME,
      webhookSecret: fakes.env.TELEGRAM_WEBHOOK_SECRET,
      apiRoot: fakes.env.TELEGRAM_API_ROOT,
    },
    `${baseUrl}${WEBHOOK_PATH}`,
  )
  project.provide('baseUrl', baseUrl)
  project.provide('e2eDatabaseUrl', dbUrl)
  project.provide('e2eRedisUrl', redisUrl)
  project.provide('e2eRedisPrefix', redisPrefix)
  project.provide('alertFakesUrl', fakes.controlUrl)

  return async () => {
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    await fakes.stop()
    await deleteKeys(redisUrl, redisPrefix)
    await dropDatabases(baseDbUrl, dbName)
    await services?.stop()
  }
}
