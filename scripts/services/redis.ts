// The local Redis: redis-server (AOF on) in DATA_DIR/redis, installed when missing (as root).
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { dataDir, portOpen, root, say, ServiceError, stopProcess, waitForPort } from './process.ts'

export const LOCAL_REDIS_PORT = Number(process.env.LOCAL_REDIS_PORT ?? 63799)

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

export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
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
