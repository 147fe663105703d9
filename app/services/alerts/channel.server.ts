import type { AlertChannelName, AlertKind } from '~/models/alert-kinds.ts'

// What every alert channel (Telegram, Web Push) offers the alert queue
// (docs/rules.md#alerts): the queue decides what to send, to whom and when; a channel only
// knows how to reach one person, and says how the attempt went.

/** One alert, already in the person's language. */
export type AlertMessage = {
  kind: AlertKind
  /** ru, en, ka or ky. */
  language: string
  title: string
  body: string
  /** Absolute address of the page the alert is about (the auction, the order). */
  url: string
  /** The auction it is about, if any: Telegram's alert buttons act on it. */
  auctionId?: string | null
}

/**
 * How one attempt went. `retryAfterMs`: the provider asked to wait (Telegram's 429
 * `retry_after`, a push service's 429/503 `Retry-After`); `gone`: this person can no longer be
 * reached on this channel (a blocked bot, a push endpoint answering 404/410), and the channel has
 * already forgotten the address; `unreachable`: the person has no address on this channel;
 * `paced`: the channel's own pacing held the message back before the provider was asked (one
 * message a second to a Telegram chat): not an attempt, the alert waits `afterMs` and goes then.
 */
export type SendOutcome =
  | { status: 'sent' }
  | { status: 'unreachable' }
  | { status: 'gone' }
  | { status: 'paced'; afterMs: number }
  | { status: 'retry'; retryAfterMs?: number; reason: string }
  | { status: 'failed'; reason: string }

export interface AlertChannel {
  readonly name: AlertChannelName
  /** False when the channel is not configured (no bot token, no VAPID keys): hidden everywhere. */
  enabled(): boolean
  /**
   * The people among these who have an address on this channel (a linked chat, a subscribed
   * device): only they get its alerts.
   */
  reachable(userIds: readonly string[]): Promise<Set<string>>
  send(userId: string, message: AlertMessage): Promise<SendOutcome>
}
