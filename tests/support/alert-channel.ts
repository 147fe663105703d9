import type { AlertChannelName } from '~/models/alert-kinds.ts'
import type { AlertChannel, AlertMessage, SendOutcome } from '~/services/alerts/channel.server.ts'

/** An answer the channel was told to give: an outcome, or a function that may throw or hang. */
type Answer = SendOutcome | (() => SendOutcome | Promise<SendOutcome>)

/**
 * An alert channel for tests: records every message it is given and answers with the outcomes
 * it was told to (then `sent`); a function outcome may throw, as a broken network would, or
 * never answer, as a consumer that died while sending.
 */
export class RecordingChannel implements AlertChannel {
  /** Every message given, with the outcome it got once it got one. */
  readonly sent: Array<{
    userId: string
    message: AlertMessage
    at: number
    outcome?: SendOutcome['status']
  }> = []
  private readonly script: Answer[] = []
  on = true
  /** How many of the next reachability look-ups throw. */
  failReachable = 0

  constructor(
    readonly name: AlertChannelName = 'telegram',
    private readonly clock: () => number = Date.now,
  ) {}

  /** The next answers, in order. */
  answer(...outcomes: Answer[]) {
    this.script.push(...outcomes)
    return this
  }

  /** The messages the provider took (answered `sent`). */
  delivered() {
    return this.sent.filter((one) => one.outcome === 'sent')
  }

  enabled() {
    return this.on
  }

  /** Everyone can be reached, unless a look-up was told to fail (`failReachable`). */
  async reachable(userIds: readonly string[]) {
    if (this.failReachable > 0) {
      this.failReachable--
      throw new Error('Postgres is not answering')
    }
    return new Set(userIds)
  }

  async send(userId: string, message: AlertMessage): Promise<SendOutcome> {
    const record: (typeof this.sent)[number] = { userId, message, at: this.clock() }
    this.sent.push(record)
    const next = this.script.shift() ?? { status: 'sent' }
    const outcome = typeof next === 'function' ? await next() : next
    record.outcome = outcome.status
    return outcome
  }
}
