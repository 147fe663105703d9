import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { freePort } from '../setup/stack.ts'

// The container's entrypoint, run as a plain script (there is no Docker engine here): with
// EMBEDDED_SERVICES=1 it brings up Postgres and Redis in DATA_DIR, migrates, serves the
// production build, and stops all of it on SIGTERM, as `docker stop` would.

const root = path.resolve(import.meta.dirname, '../..')
const dataDir = mkdtempSync(path.join(tmpdir(), 'pa-entrypoint-'))
// Run as root (CI), Postgres runs as the "postgres" user, which must be able to enter it.
chmodSync(dataDir, 0o755)
const started: ChildProcess[] = []

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => socket.destroy() || resolve(true))
    socket.once('error', () => resolve(false))
  })

function entrypoint(extra: Record<string, string>) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    SESSION_SECRET: 'entrypoint-session-secret-entrypoint-0123',
    PAYMENT_SANDBOX_SECRET: 'entrypoint-sandbox-secret-0123',
    PAYMENT_SANDBOX_DEMO: '1',
    LOG_LEVEL: 'warn',
    ...extra,
  }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  let output = ''
  const child = spawn('sh', ['scripts/docker-entrypoint.sh'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  started.push(child)
  return { child, exited, output: () => output }
}

/** `promise`, or a failure that shows the entrypoint's output when it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string, output: () => string) {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms:\n${output()}`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

describe('the container entrypoint', () => {
  test('EMBEDDED_SERVICES=1: Postgres and Redis inside, migrated, served, stopped on SIGTERM', async () => {
    const [port, pgPort, redisPort] = [await freePort(), await freePort(), await freePort()]
    const run = entrypoint({
      EMBEDDED_SERVICES: '1',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOCAL_PG_PORT: String(pgPort),
      LOCAL_REDIS_PORT: String(redisPort),
    })
    const deadline = Date.now() + 120_000
    for (;;) {
      expect(run.child.exitCode, run.output()).toBeNull()
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`, {
        signal: AbortSignal.timeout(5_000),
      }).then(
        (response) => response.ok,
        () => false,
      )
      if (ready) break
      expect(Date.now(), `not ready in time:\n${run.output()}`).toBeLessThan(deadline)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(run.output()).toContain('starting embedded Postgres 17')
    expect(run.output()).toContain('starting redis-server (AOF on)')
    // Migrated: the pages that read the database render.
    for (const page of ['/auctions', '/topup']) {
      const response = await within(
        fetch(`http://127.0.0.1:${port}${page}`),
        15_000,
        `GET ${page}`,
        run.output,
      )
      expect(response.status, page).toBe(200)
      await response.arrayBuffer()
    }
    // No METRICS_TOKEN here: production keeps /metrics closed, even to this host.
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`)
    expect(metrics.status).toBe(403)
    expect(await metrics.json()).toEqual({ error: 'Metrics are off: set METRICS_TOKEN' })

    // The signal goes straight to the node process that runs scripts/serve.ts (the shell
    // exec'd it): no launcher in between that could give up on relaying it and kill the server.
    const command = readFileSync(`/proc/${run.child.pid}/cmdline`, 'utf8').split('\0')
    expect(command.slice(0, 4)).toEqual(['node', '--import', 'tsx', 'scripts/serve.ts'])
    run.child.kill('SIGTERM')
    expect(await within(run.exited, 40_000, 'stopping', run.output)).toBe(0)
    expect(await portOpen(port)).toBe(false)
    expect(await portOpen(pgPort)).toBe(false)
    expect(await portOpen(redisPort)).toBe(false)
  }, 180_000)

  test('EMBEDDED_SERVICES=1 next to DATABASE_URL is refused with a message', async () => {
    const refused = spawn('sh', ['scripts/docker-entrypoint.sh'], {
      cwd: root,
      env: {
        ...process.env,
        EMBEDDED_SERVICES: '1',
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    refused.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => refused.once('exit', resolve))
    expect(code).toBe(1)
    expect(stderr).toContain('leave DATABASE_URL and REDIS_URL unset')
  })
})
