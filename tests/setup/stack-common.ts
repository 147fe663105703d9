import net from 'node:net'
import path from 'node:path'

// What every part of the stack (stack.ts) shares: the repository's root, the secrets its servers
// are started with, free ports and waiting.

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
