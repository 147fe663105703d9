import { AsyncLocalStorage } from 'node:async_hooks'

// Structured JSON logs, one line per event, level-filtered by LOG_LEVEL. A line written while
// a request is handled carries its request id, and the user and auction once they are known.

/** What a request is about; filled in as it is handled. */
export type RequestContext = {
  requestId: string
  userId?: string
  auctionId?: string
  /**
   * Set when Postgres or Redis was out of reach: the answer becomes a 503 with this message
   * (in the visitor's language), not a 500.
   */
  unavailable?: Promise<string>
}

// One store for the whole process: the server and the app's build each bundle this module.
const shared = globalThis as typeof globalThis & {
  [key: symbol]: AsyncLocalStorage<RequestContext> | undefined
}
const storeKey = Symbol.for('penny-auction.request-context')
const requests = (shared[storeKey] ??= new AsyncLocalStorage<RequestContext>())

/** Runs `fn` (and everything it starts) as part of the request `context` describes. */
export function withRequestContext<T>(context: RequestContext, fn: () => T): T {
  return requests.run(context, fn)
}

export function requestContext(): RequestContext | undefined {
  return requests.getStore()
}

/** Adds what became known about the current request (its user, its auction). */
export function noteRequest(fields: Pick<RequestContext, 'userId' | 'auctionId'>) {
  const context = requests.getStore()
  if (context) Object.assign(context, fields)
}

type Level = 'debug' | 'info' | 'warn' | 'error'
const order: Record<Level | 'silent', number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
}

function threshold(): number {
  const level = (process.env.LOG_LEVEL ?? 'info') as Level | 'silent'
  return order[level] ?? order.info
}

function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (order[level] < threshold()) return
  const context = requests.getStore()
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    msg,
    ...(context && {
      requestId: context.requestId,
      userId: context.userId,
      auctionId: context.auctionId,
    }),
    ...fields,
  })
  if (level === 'error' || level === 'warn') process.stderr.write(line + '\n')
  else process.stdout.write(line + '\n')
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
}

export function errorFields(error: unknown): Record<string, unknown> {
  return error instanceof Error
    ? { error: error.message, stack: error.stack }
    : { error: String(error) }
}

/**
 * Postgres or Redis out of reach (refused, reset, timed out, pool closed), as opposed to a
 * fault in the request: such a failure is answered with 503 and "try again".
 */
export function isUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false
    const { name, code, message } = e as { name?: string; code?: string; message?: string }
    if (
      name === 'PrismaClientInitializationError' ||
      name === 'MaxRetriesPerRequestError' ||
      // Redis refused to mark ended sessions (app/services/session.server.ts).
      name === 'SessionsNotForgotten' ||
      // A write no replica confirmed in time (engine/replicas.ts): it stays, asked again later.
      name === 'NotReplicated'
    )
      return true
    if (
      code &&
      /^(P1001|P1002|P1008|P1017|P2024|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P01|57P03)$/.test(
        code,
      )
    )
      return true
    if (
      message &&
      /Connection is closed|connect ECONNREFUSED|^READONLY|^LOADING|^UNBLOCKED|Connection terminated|timeout exceeded when trying to connect|Can't reach database server/i.test(
        message,
      )
    )
      return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}
