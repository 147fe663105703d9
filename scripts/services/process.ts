// What the local services (scripts/services.ts) share: their folder, messages, and starting and
// stopping processes that answer on a port.
import { readFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'

export const root = path.resolve(import.meta.dirname, '..', '..')
export const dataDir = path.resolve(root, process.env.DATA_DIR || '.data')

export function say(message: string) {
  process.stdout.write(`[services] ${message}\n`)
}

export class ServiceError extends Error {}

export function portOpen(port: number): Promise<boolean> {
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
export function runningPid(pidFile: string): number | null {
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
export async function gone(pid: number, ms: number): Promise<boolean> {
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
export async function stopProcess(
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

export async function waitForPort(port: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await portOpen(port)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new ServiceError(`nothing answered on port ${port} within ${timeoutMs} ms`)
}
