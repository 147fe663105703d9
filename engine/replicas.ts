import type { Redis } from 'ioredis'
import { duplicateRedis } from './redis.ts'
import { silentLogger, type Logger } from './types.ts'

/** A write Redis made but fewer replicas than asked confirmed within the wait: it stays. */
export class NotReplicated extends Error {
  override readonly name = 'NotReplicated'
  constructor(
    readonly what: string,
    readonly replicas: number,
    readonly wanted: number,
  ) {
    super(`${what} written, but ${replicas} of ${wanted} replicas confirmed it in time`)
  }
}

/**
 * Whether `error` is a NotReplicated, told by its name: the production server bundles the engine
 * apart from the app (build/server.js and the Remix build), so `instanceof` does not see an
 * error made by the other copy of the class.
 */
export function isNotReplicated(error: unknown): error is NotReplicated {
  return error instanceof Error && error.name === 'NotReplicated'
}

/** How much longer than the replicas' wait an acknowledged write may take before it fails. */
export const ACKNOWLEDGED_COMMAND_SLACK_MS = 4_000

export type ReplicaOptions = {
  /** Replicas that must hold a write before it is acknowledged; 0 = no wait. */
  count: number
  timeoutMs: number
}

/**
 * The acknowledged writes (bids, prebids, credits, adjustments, auto-bid budgets) and their
 * Redis WAIT (docs/decisions/037-acknowledged-after-a-replica.md). WAIT covers every write its
 * connection made before it and holds that connection until the replicas answer, so these
 * writes get a connection of their own: page reads never queue behind a WAIT. Writes whose
 * answers arrive together share one WAIT.
 */
export class Replication {
  /** The connection the acknowledged writes go through. */
  readonly redis: Redis
  private next: Promise<number> | null = null

  constructor(
    main: Redis,
    readonly options: ReplicaOptions = { count: 0, timeoutMs: 0 },
    log: Pick<Logger, 'warn'> = silentLogger,
  ) {
    // A write in flight when the connection drops is not sent again to whichever primary comes
    // next: its caller gets an error (a 503), as for any write not confirmed. ioredis (5.11 and
    // 6.0) leaves such a command unsettled for ever when the connection comes back at the first
    // or second try (https://github.com/redis/ioredis/issues/2193): the command timeout turns
    // that into the same error, a little after the longest a WAIT may take.
    this.redis =
      options.count > 0
        ? duplicateRedis(main, log, 'penny-auction:acknowledged', {
            autoResendUnfulfilledCommands: false,
            commandTimeout: options.timeoutMs + ACKNOWLEDGED_COMMAND_SLACK_MS,
          })
        : main
  }

  /** Returns once `count` replicas hold what this connection wrote; throws NotReplicated if not. */
  async confirm(what: string): Promise<void> {
    const { count } = this.options
    if (count === 0) return
    const replicas = await this.waitOnce()
    if (replicas < count) throw new NotReplicated(what, replicas, count)
  }

  /**
   * For a reader of what other connections wrote (the outbox, before it copies entries to
   * Postgres): returns once `count` replicas hold everything Redis had written when it read. A
   * write of its own to `fence` comes after all of that in the replication stream, and WAIT on
   * its connection covers it. Throws NotReplicated when they do not in time.
   */
  async caughtUp(connection: Redis, fence: string, what: string): Promise<void> {
    const { count, timeoutMs } = this.options
    if (count === 0) return
    const [, replicas] = await Promise.all([
      connection.set(fence, '1', 'PX', 60_000),
      connection.call('WAIT', count, timeoutMs),
    ])
    if (Number(replicas) < count) throw new NotReplicated(what, Number(replicas), count)
  }

  private waitOnce(): Promise<number> {
    // Sent on the next microtask, for every write answered before it.
    this.next ??= Promise.resolve().then(async () => {
      this.next = null
      return Number(await this.redis.call('WAIT', this.options.count, this.options.timeoutMs))
    })
    return this.next
  }

  async close() {
    if (this.options.count > 0) await this.redis.quit().catch(() => {})
  }
}
