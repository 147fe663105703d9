import type { Engine } from './engine.ts'

/** The 1 Hz timer broadcast: emits the map of live auctions to milliseconds left. */
export class TimerBroadcast {
  private interval: NodeJS.Timeout | undefined

  constructor(private readonly engine: Engine) {}

  start() {
    if (this.interval) return
    this.interval = setInterval(() => {
      this.engine
        .getTimers()
        .then(({ at, timers }) => this.engine.emit('timers', { at, timers }))
        .catch((error: unknown) =>
          this.engine.log.warn('timer broadcast failed', { error: String(error) }),
        )
    }, 1000)
  }

  stop() {
    clearInterval(this.interval)
    this.interval = undefined
  }
}
