import { io, type Socket } from 'socket.io-client'
import { expect } from 'vitest'
import type { AuctionStatus, Engine } from '../../engine/index.ts'
import {
  BID_EVERY_MS,
  createAuctions,
  sleep,
  waitFor,
  type App,
  type Person,
  type Scenario,
} from '../setup/stack.ts'

// The bidding of a fault scenario: bidders that remember every bid the server acknowledged,
// the auctions they bid on, and what an outage may answer them.

export type Ack = { userId: string; auctionId: string; price: number; at: number }
type Outcome = { status: number | 'network'; at: number; target: string }

/**
 * Every person bids every BID_EVERY_MS on the auctions in turn, through whichever instance
 * `target()` names. A bid counts as acknowledged only on a 200 with `ok: true`; its price (the
 * auction's price after it, unique per auction) identifies it in Postgres.
 */
export class Bidders {
  readonly acks: Ack[] = []
  readonly outcomes: Outcome[] = []
  private running = false
  private loops: Promise<void>[] = []

  constructor(
    private readonly people: Person[],
    private readonly auctions: string[],
    private readonly target: () => string,
  ) {}

  start() {
    this.running = true
    this.loops = this.people.map((person, index) => this.loop(person, index))
  }

  /** Stops and waits for the requests in flight, so every answer is counted. */
  async stop() {
    this.running = false
    await Promise.all(this.loops)
  }

  count(status: Outcome['status'], since = 0) {
    return this.outcomes.filter((o) => o.status === status && o.at >= since).length
  }

  statuses(from = 0, to = Infinity) {
    const counts: Record<string, number> = {}
    for (const o of this.outcomes) {
      if (o.at >= from && o.at < to) counts[o.status] = (counts[o.status] ?? 0) + 1
    }
    return counts
  }

  private async loop(person: Person, index: number) {
    // People start spread over one interval, and on different auctions.
    await sleep((index * BID_EVERY_MS) / this.people.length)
    let turn = index
    while (this.running) {
      const started = Date.now()
      const auctionId = this.auctions[turn++ % this.auctions.length]!
      const base = this.target()
      let status: Outcome['status'] = 'network'
      try {
        const response = await fetch(`${base}/api/auctions/${auctionId}/bid`, {
          method: 'POST',
          headers: { Cookie: person.cookie, 'Accept-Language': 'ru' },
          signal: AbortSignal.timeout(10_000),
        })
        status = response.status
        const body = (await response.json().catch(() => null)) as {
          ok?: boolean
          currentPrice?: number
        } | null
        if (status === 200 && body?.ok && typeof body.currentPrice === 'number') {
          this.acks.push({
            userId: person.id,
            auctionId,
            price: Math.round(body.currentPrice * 100),
            at: Date.now(),
          })
        }
      } catch {
        // Refused, reset or timed out: not acknowledged.
      }
      this.outcomes.push({ status, at: started, target: base })
      await sleep(Math.max(0, started + BID_EVERY_MS - Date.now()))
    }
  }
}

/**
 * Waits until bids are acknowledged again and a socket's update (`updates`, from watchUpdates)
 * came after `since`, lets the bidding go on 3 s more and stops it.
 */
export async function recoveredAfter(bidders: Bidders, updates: number[], since: number) {
  await waitFor(
    'bids acknowledged again',
    async () => bidders.acks.some((a) => a.at > since),
    15_000,
    100,
  )
  await waitFor('an auctionUpdate after the outage', async () => updates.at(-1)! > since, 10_000)
  await sleep(3_000)
  await bidders.stop()
}

/**
 * A clean error for every bid during an outage (`answers`, from Bidders.statuses): an answer,
 * never a dropped connection nor a server error; no server process died.
 */
export function expectCleanAnswers(answers: Record<string, number>, apps: App[]) {
  expect(answers.network ?? 0, 'requests without an answer during the outage').toBe(0)
  expect(answers['500'] ?? 0, 'server errors during the outage').toBe(0)
  for (const app of apps) expect(app.exited(), 'the server process').toBeNull()
}

/**
 * A socket on the instance at `url` following one auction: the times its `auctionUpdate`s came.
 * Resolves once connected.
 */
export async function watchUpdates(url: string, auctionId: string) {
  const updates: number[] = []
  const socket: Socket = io(url, { transports: ['websocket'] })
  socket.on('connect', () => socket.emit('joinAuction', auctionId))
  socket.on('auctionUpdate', () => updates.push(Date.now()))
  await waitFor('the socket to connect', async () => socket.connected, 5_000)
  return { socket, updates }
}

/**
 * Auctions starting in half a second, made once the servers are up and loaded into Redis as an
 * admin's new auction is: their ten seconds without a bid do not run out while a slow machine
 * is still starting the second server.
 */
export async function startAuctions(engine: Engine, scenario: Scenario, count: number) {
  const ids = await createAuctions(scenario.prisma, count)
  for (const id of ids) await engine.loadAuction(id)
  return ids
}

/** Waits until every auction has `status` in Redis. */
export function auctionsReach(
  engine: Engine,
  auctions: string[],
  status: AuctionStatus,
  timeoutMs: number,
) {
  return waitFor(
    `the auctions to be ${status}`,
    async () => (await engine.getStates(auctions)).every((s) => s?.status === status),
    timeoutMs,
  )
}
