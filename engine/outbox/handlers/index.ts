import type { OutboxBatch } from '../batch.ts'
import type { OutboxEventType, OutboxHandler } from '../events.ts'
import { autobid } from './autobid.ts'
import { balance } from './balance.ts'
import { bid } from './bid.ts'
import { finish } from './finish.ts'
import { prebid } from './prebid.ts'
import { start } from './start.ts'

// One handler per entry type. The table's type requires a handler for every type in
// OutboxEvents, so a type added there without one fails the type check.
const handlers: { readonly [Type in OutboxEventType]: OutboxHandler<Type> } = {
  bid,
  prebid,
  start,
  finish,
  balance,
  autobid,
}

/** Adds the entry to the batch by its type; false for a type this version does not know. */
export function gather(batch: OutboxBatch, id: string, fields: Record<string, string>): boolean {
  const type = fields.type
  if (type === undefined || !Object.hasOwn(handlers, type)) return false
  const handle = handlers[type as OutboxEventType] as OutboxHandler<OutboxEventType>
  handle(batch, { id, at: new Date(Number(fields.at)), fields })
  return true
}
