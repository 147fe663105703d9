import { randomUUID } from 'node:crypto'
import type { Engine } from './engine.ts'
import { defineScript } from './lua-runner.ts'

const lease = defineScript({
  name: 'lease',
  keys: ['lease'],
  args: ['holder', 'ttlMs'],
  /** Whether `holder` holds the lease now. */
  parse: (raw) => raw === 1,
})
const release = defineScript({
  name: 'release',
  keys: ['lease'],
  args: ['holder'],
  parse: () => undefined,
})

export const LEASE_TTL_MS = 1_500
const RENEW_EVERY_MS = 400

/**
 * Only one instance runs the sweepers, the bot worker and the timer broadcast: the one holding
 * a short Redis lease (SET NX PX, renewed). When it dies the lease lapses within 1.5 s and the
 * next instance to try (every 400 ms) takes over, well inside 2 s.
 */
export class Lease {
  readonly holder = randomUUID()
  private timer: NodeJS.Timeout | undefined
  private held = false

  constructor(
    private readonly engine: Engine,
    private readonly onChange: (leader: boolean) => void,
  ) {}

  get isLeader() {
    return this.held
  }

  start() {
    if (this.timer) return
    const tick = async () => {
      let now = false
      try {
        now = await lease.run(
          this.engine.redis,
          { lease: this.engine.keys.lease },
          { holder: this.holder, ttlMs: LEASE_TTL_MS },
        )
      } catch (error) {
        this.engine.log.warn('engine lease check failed', { error: String(error) })
      }
      if (now !== this.held) {
        this.held = now
        this.engine.log.info(now ? 'engine lease taken' : 'engine lease lost', {
          holder: this.holder,
        })
        this.onChange(now)
      }
    }
    void tick()
    this.timer = setInterval(() => void tick(), RENEW_EVERY_MS)
  }

  async stop() {
    clearInterval(this.timer)
    this.timer = undefined
    if (this.held) {
      this.held = false
      this.onChange(false)
      await release
        .run(this.engine.redis, { lease: this.engine.keys.lease }, { holder: this.holder })
        .catch(() => {})
    }
  }

  /** Who holds the lease now (any instance's id), or null. */
  static async holderOf(engine: Engine): Promise<string | null> {
    return engine.redis.get(engine.keys.lease)
  }
}

/**
 * Runs a worker of the web tier (payment reconciliation, the demo keeper) only while this
 * instance holds the lease: createEngineRuntime emits 'leader' when it is taken or lost.
 */
export function followLease(engine: Engine, worker: { start(): void; stop(): void }) {
  engine.on('leader', ({ leader }: { leader: boolean }) =>
    leader ? worker.start() : worker.stop(),
  )
}
