import type { Logger } from '../types.ts'
import type { OutboxEntry } from './events.ts'

// The outbox's listeners (`OutboxWorker.onWritten`, engine/outbox/worker.ts): called with every
// batch once Postgres holds it, before the batch is acknowledged (the alert producers, which
// record what they make in Postgres: docs/decisions/064-alerts-recorded-before-queued.md).

export type OutboxListener = (entries: OutboxEntry[]) => Promise<unknown>

/**
 * Tries of one batch whose listener keeps failing (about two minutes with the outbox's
 * back-off), after which the batch is acknowledged anyway: the money path waits on its
 * listeners' transient failures, never on a fault that does not pass.
 */
export const LISTENER_TRIES = 10

export class OutboxListeners {
  private readonly listeners: OutboxListener[] = []
  /** The batch (its first entry) a listener failed on, and how often in a row. */
  private failed: { id: string; times: number } | undefined

  constructor(private readonly log: Logger) {}

  add(listener: OutboxListener) {
    this.listeners.push(listener)
  }

  /**
   * Gives a written batch to every listener. Throws when one failed, so that the batch stays
   * unacknowledged and is given again; the LISTENER_TRIES-th failure in a row on the same batch
   * is logged as an error instead, and the batch goes.
   */
  async tell(entries: OutboxEntry[]) {
    try {
      for (const listener of this.listeners) await listener(entries)
      this.failed = undefined
    } catch (error) {
      const id = entries[0]!.id
      const times = this.failed?.id === id ? this.failed.times + 1 : 1
      this.failed = { id, times }
      const fields = {
        error: error instanceof Error ? error.message : String(error),
        first: id,
        last: entries.at(-1)!.id,
        times,
      }
      if (times < LISTENER_TRIES) {
        this.log.warn('outbox listener failed; the batch is given again', fields)
        throw error
      }
      this.failed = undefined
      this.log.error('outbox listener failed for good; the batch is acknowledged', fields)
    }
  }
}
