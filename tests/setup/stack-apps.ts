import { spawn, type ChildProcess } from 'node:child_process'
import { SERVER_NODE_ARGS } from '../../scripts/node-args.ts'
import { freePort, METRICS_TOKEN, root, SESSION_SECRET, waitFor } from './stack-common.ts'

// Production servers of the stack (stack.ts) to start and kill, and what they report.

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
    // A server that stops at start (a bad environment, say) fails the wait at once; one that is
    // only slow (a first start on a busy 2-core machine took over 30 s) is waited for.
    await Promise.race([
      waitFor(`${options.label} /readyz`, async () => (await fetch(`${url}/readyz`)).ok, 90_000),
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
