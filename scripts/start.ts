// `npm run demo`: local services when needed, migrations, demo data, a production build, and
// the server, in demo mode: the demo keeper keeps auctions running however long ago the data was
// seeded (docs/decisions/048-demo-keeper.md). `--dev` runs the development server (Vite
// middleware) instead of a build.
import { spawn, type ChildProcess } from 'node:child_process'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { ensureServices, ServiceError } from './services.ts'
import { root, runOrFail, stopOnce, StepFailed } from './run.ts'
import { SERVER_NODE_ARGS } from './node-args.ts'

const { values } = parseArgs({
  options: {
    dev: { type: 'boolean', default: false },
    seed: { type: 'boolean', default: true },
    build: { type: 'boolean', default: true },
  },
  allowNegative: true,
})

async function main() {
  const services = await ensureServices()
  const env = {
    ...process.env,
    DATABASE_URL: services.DATABASE_URL,
    REDIS_URL: services.REDIS_URL,
    // A demo that stays alive: auctions kept running, house bots bidding (DEMO_MODE=0 turns it off).
    DEMO_MODE: process.env.DEMO_MODE ?? '1',
  }
  const stop = stopOnce(services)
  const running: { child?: ChildProcess } = {}
  // Ctrl-C before the server runs stops the services; afterwards the server stops first.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (running.child) running.child.kill(signal)
      else void stop(130)
    })
  }
  try {
    await runOrFail('prisma', ['generate'], { env })
    await runOrFail('prisma', ['migrate', 'deploy'], { env })
    if (values.seed && (await isEmpty(env.DATABASE_URL))) {
      await runOrFail('tsx', ['prisma/seed.ts'], { env })
    } else if (values.seed) {
      process.stdout.write('[demo] demo data already present (npm run db:seed re-seeds it)\n')
    }
    if (!values.dev && values.build) await runOrFail('npm', ['run', 'build'], { env })
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    await stop(error instanceof StepFailed ? error.code : 1)
    return
  }

  const child = values.dev
    ? spawn('node_modules/.bin/tsx', ['server.ts'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...env, NODE_ENV: 'development' },
      })
    : spawn('node', [...SERVER_NODE_ARGS, 'build/server.js'], {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...env,
          NODE_ENV: 'production',
          // The demo is reached on this machine; production requires the public origin.
          PUBLIC_ORIGIN:
            process.env.PUBLIC_ORIGIN ?? `http://localhost:${process.env.PORT ?? 3000}`,
          SESSION_SECRET: process.env.SESSION_SECRET ?? localSecret(),
          PAYMENT_SANDBOX_SECRET: process.env.PAYMENT_SANDBOX_SECRET ?? localSecret(),
          PAYMENT_SANDBOX_DEMO: '1',
        },
      })
  running.child = child
  child.once('exit', (code) => void stop(code ?? 0))
}

/** True before the first seed: a demo seeds once, then keeps what happened in it. */
async function isEmpty(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM "User"')
    return Number(rows[0]?.count ?? 0) === 0
  } finally {
    await client.end()
  }
}

/** A production start needs a secret; a local demo makes one per run (sessions end with it). */
function localSecret() {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('')
}

main().catch(async (error: unknown) => {
  if (error instanceof ServiceError) process.stderr.write(`[services] ${error.message}\n`)
  else
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
  process.exit(1)
})
