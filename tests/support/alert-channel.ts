import type {
  AlertChannel,
  AlertChannelName,
  AlertMessage,
  SendOutcome,
} from '~/services/alerts/channel.server.ts'

/**
 * An alert channel for tests: records every message it is given and answers with the outcomes
 * it was told to (then `sent`); a function outcome may throw, as a broken network would.
 */
export class RecordingChannel implements AlertChannel {
  readonly sent: Array<{ userId: string; message: AlertMessage; at: number }> = []
  private readonly script: Array<SendOutcome | (() => SendOutcome)> = []
  on = true

  constructor(
    readonly name: AlertChannelName = 'telegram',
    private readonly clock: () => number = Date.now,
  ) {}

  /** The next answers, in order. */
  answer(...outcomes: Array<SendOutcome | (() => SendOutcome)>) {
    this.script.push(...outcomes)
    return this
  }

  enabled() {
    return this.on
  }

  async reachable() {
    return true
  }

  async send(userId: string, message: AlertMessage): Promise<SendOutcome> {
    this.sent.push({ userId, message, at: this.clock() })
    const next = this.script.shift() ?? { status: 'sent' }
    return typeof next === 'function' ? next() : next
  }
}
