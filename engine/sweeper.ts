import type { Engine } from './engine.ts'

const MAX_SLEEP_MS = 100
const MIN_SLEEP_MS = 2

/**
 * Starts and finishes auctions on time. Each pass is one Lua script that re-checks every
 * deadline against Redis TIME; between passes it sleeps until the next start or deadline it
 * was told about (at most 100 ms, since a bid can move a deadline only later, never earlier,
 * and new auctions can appear at any time).
 */
export class Sweeper {
  private running = false
  private wake: NodeJS.Timeout | undefined
  private wakeUp: (() => void) | undefined
  private loop: Promise<void> | undefined

  constructor(private readonly engine: Engine) {}

  start() {
    if (this.running) return
    this.running = true
    this.loop = this.run()
  }

  async stop() {
    this.running = false
    clearTimeout(this.wake)
    this.wakeUp?.()
    await this.loop
  }

  private async run() {
    while (this.running) {
      let sleep = MAX_SLEEP_MS
      try {
        const result = await this.engine.sweep()
        const next = Math.min(result.nextStart ?? Infinity, result.nextDeadline ?? Infinity)
        sleep = Math.max(MIN_SLEEP_MS, Math.min(MAX_SLEEP_MS, next - result.now))
        // A full batch means more may be due right now.
        if (result.started.length >= 100 || result.finished.length >= 100) sleep = 0
      } catch (error) {
        this.engine.log.warn('sweep failed', { error: String(error) })
        sleep = 500
      }
      if (!this.running) break
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve
        this.wake = setTimeout(resolve, sleep)
      })
    }
  }
}
