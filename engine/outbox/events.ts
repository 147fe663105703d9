import type { OutboxBatch } from './batch.ts'

// The outbox stream's entries as the Lua scripts write them (engine/lua/). Every
// entry carries `type` and `at` (Redis time in ms) besides the fields of its type; values are
// strings, as Redis keeps them, and are read unchecked, so each is optional here.

type Fields<Name extends string> = { readonly [F in Name]?: string }

export type OutboxEvents = {
  /**
   * A person's, a bot's (`bot` 1, bidder `bot:<id>`) or an auto-bidder's (`auto` 1) bid, with
   * its place (`seq`) and `kind` in the auction's record (docs/fair-play.md).
   */
  bid: Fields<
    'auction' | 'bidder' | 'name' | 'bot' | 'debit' | 'price' | 'balance' | 'auto' | 'seq' | 'kind'
  >
  /** A prebid on an upcoming auction: one bid credit taken. */
  prebid: Fields<'auction' | 'bidder' | 'name' | 'balance'>
  /**
   * An auction went live; its prebids became its first bids (`conversions`, JSON, each with its
   * place in the record).
   */
  start: Fields<'auction' | 'price' | 'deadline' | 'conversions'>
  /** An auction ended (by its timer, or by an admin: `admin` 1). */
  finish: Fields<'auction' | 'winner' | 'name' | 'bot' | 'price' | 'endedAt' | 'bids' | 'admin'>
  /** A credit or an admin's change of a bid balance (with the admin and their `note`). */
  balance: Fields<
    'user' | 'amount' | 'balance' | 'reason' | 'reference' | 'auction' | 'admin' | 'note'
  >
  /** An auto-bid budget reserved from (`kind` reserve) or returned to (return) a balance. */
  autobid: Fields<'kind' | 'auction' | 'user' | 'amount' | 'balance'>
}

export type OutboxEventType = keyof OutboxEvents

/** One stream entry: its id (unique, the idempotency key in Postgres) and its fields. */
export type OutboxEntry = { id: string; fields: Record<string, string> }

/** Adds one entry of its type to the batch being written (one per type: handlers/). */
export type OutboxHandler<Type extends OutboxEventType> = (
  batch: OutboxBatch,
  entry: { id: string; at: Date; fields: OutboxEvents[Type] },
) => void
