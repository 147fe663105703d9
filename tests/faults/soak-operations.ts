// What the people of the money soak test (money-soak.faults.ts) do, at random from a printed
// seed: bids, prebids, auto-bids, bid packages paid at the Freedom Pay fake with callbacks sent
// once, repeated, lost, reordered or declined, or refunded (after a lost callback, or after the
// bids were credited and perhaps spent), and an admin's balance adjustments sent again.
import { BID_PACKAGES } from '../../app/utils/bid-packages.ts'
import type { FakePayment, FreedomPayFake } from '../support/freedompay-fake.ts'
import { sleep, type Person } from './harness.ts'

/** mulberry32: a small seeded generator, so that a run's choices can be made again. */
export function seeded(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  }
}
export type Rng = ReturnType<typeof seeded>

/** Answers counted by operation and outcome (an HTTP status, or `network`). */
export class Tally {
  readonly counts = new Map<string, Map<string, number>>()

  add(kind: string, outcome: string) {
    const row = this.counts.get(kind) ?? new Map<string, number>()
    row.set(outcome, (row.get(outcome) ?? 0) + 1)
    this.counts.set(kind, row)
  }

  total(kind?: string) {
    let sum = 0
    for (const [name, row] of this.counts)
      if (!kind || name === kind) for (const n of row.values()) sum += n
    return sum
  }

  describe() {
    return [...this.counts]
      .map(
        ([kind, row]) => `${kind} ${this.total(kind)} ${JSON.stringify(Object.fromEntries(row))}`,
      )
      .join('; ')
  }
}

export type SoakAuction = { id: string; startsAt: number }

/**
 * How the provider tells us about a paid (or declined) package: `lost-refunded`, its callback
 * lost and the money then refunded in Freedom Pay's console (never to be credited);
 * `refunded-later`, credited and refunded at the end, its bids perhaps spent (refundLater).
 */
export type Delivery =
  'once' | 'repeated' | 'lost' | 'reordered' | 'declined' | 'lost-refunded' | 'refunded-later'
const DELIVERIES: Delivery[] = [
  ...Array<Delivery>(8).fill('once'),
  ...Array<Delivery>(4).fill('repeated'),
  ...Array<Delivery>(2).fill('lost'),
  ...Array<Delivery>(3).fill('reordered'),
  ...Array<Delivery>(3).fill('declined'),
  ...Array<Delivery>(2).fill('lost-refunded'),
  ...Array<Delivery>(2).fill('refunded-later'),
]

export type Purchase = { payment: FakePayment; delivery: Delivery; userId: string }
export type Adjustment = { key: string; userId: string; delta: number; confirmed: boolean }

export type SoakWorld = {
  /** The address of an instance that is up (the one a balancer would send to). */
  target: () => string
  auctions: SoakAuction[]
  fake: FreedomPayFake
  tally: Tally
  purchases: Purchase[]
  adjustments: Adjustment[]
  /** Reordered callbacks, sent later in a shuffled order (deliverDeferred). */
  deferred: (() => Promise<unknown>)[]
  /** Credited packages to refund in Freedom Pay's console near the end (refundLater). */
  toRefund: FakePayment[]
}

type Answer = { status: number | 'network'; response?: Response }

async function call(
  world: SoakWorld,
  kind: string,
  person: Person,
  path: string,
  init: RequestInit = {},
) {
  let answer: Answer = { status: 'network' }
  try {
    const response = await fetch(`${world.target()}${path}`, {
      method: 'POST',
      redirect: 'manual',
      ...init,
      headers: { Cookie: person.cookie, 'Accept-Language': 'ru', ...init.headers },
      signal: AbortSignal.timeout(10_000),
    })
    answer = { status: response.status, response }
    await response.arrayBuffer().catch(() => null)
  } catch {
    // Refused, reset or timed out: counted as `network`.
  }
  world.tally.add(kind, String(answer.status))
  return answer
}

/** Auctions started: mostly the newest ones, sometimes an older one (perhaps finished). */
function startedAuction(world: SoakWorld, rng: Rng) {
  const now = Date.now()
  const started = world.auctions.filter((a) => a.startsAt <= now)
  if (started.length === 0) return undefined
  const newest = Math.max(...started.map((a) => a.startsAt))
  const recent = started.filter((a) => a.startsAt >= newest - 5_000)
  return rng.next() < 0.85 ? rng.pick(recent) : rng.pick(started)
}

function upcomingAuction(world: SoakWorld, rng: Rng) {
  const upcoming = world.auctions.filter((a) => a.startsAt > Date.now() + 1_500)
  return upcoming.length ? rng.pick(upcoming) : undefined
}

async function purchase(world: SoakWorld, person: Person, rng: Rng) {
  const pkg = rng.pick(BID_PACKAGES)
  const answer = await call(world, 'purchase', person, '/topup', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'buy', packageId: pkg.id }).toString(),
  })
  const location = answer.response?.headers.get('location')
  if (!location?.startsWith(world.fake.url)) return
  const customer = new URL(location).searchParams.get('customer')
  const payment = [...world.fake.payments.values()].find((p) => p.customer === customer)
  if (!payment) throw new Error(`the fake does not know the checkout ${location}`)
  const delivery = rng.pick(DELIVERIES)
  world.purchases.push({ payment, delivery, userId: person.id })
  await deliver(world, payment, delivery, rng)
}

/**
 * The payer pays (or declines) and the fake calls our result URL: once; three times, two of
 * them at the same moment; never (a lost callback, for reconciliation); later, among other
 * payments' callbacks, with a stale `failed` callback before or after it. A callback answered
 * other than 200 is sent again by the fake on its retry schedule.
 */
async function deliver(world: SoakWorld, payment: FakePayment, delivery: Delivery, rng: Rng) {
  const { fake } = world
  payment.status = delivery === 'declined' ? 'failed' : 'success'
  // Its callback lost, then the whole payment refunded in Freedom Pay's console.
  if (delivery === 'lost-refunded') fake.refund(payment)
  if (delivery === 'refunded-later') {
    await fake.sendCallback(payment)
    world.toRefund.push(payment)
  }
  if (delivery === 'once' || delivery === 'declined') await fake.sendCallback(payment)
  if (delivery === 'repeated') {
    await Promise.all([fake.sendCallback(payment), fake.sendCallback(payment)])
    await fake.sendCallback(payment)
  }
  if (delivery !== 'reordered') return
  const staleFirst = rng.next() < 0.5
  world.deferred.push(async () => {
    // The callback reads the payment's status as it starts: a stale `failed`, then the truth.
    const stale = () => {
      payment.status = 'failed'
      const sent = fake.sendCallback(payment)
      payment.status = 'success'
      return sent
    }
    if (staleFirst) await stale()
    await fake.sendCallback(payment)
    if (!staleFirst) await stale()
  })
}

/**
 * Refunds in Freedom Pay's console the credited packages waiting for it: the whole amount, or
 * (one time in three) a part, which takes the whole package's bids back all the same.
 */
export function refundLater(world: SoakWorld, rng: Rng) {
  const waiting = world.toRefund.splice(0)
  for (const payment of waiting) {
    const part = rng.next() < 1 / 3
    const amount = part ? (Number(payment.amount) / 2).toFixed(2) : payment.amount
    if (!world.fake.refund(payment, amount)) throw new Error(`the fake refused ${payment.id}`)
  }
  return waiting.length
}

/** Sends the reordered callbacks waiting so far, in a shuffled order. */
export async function deliverDeferred(world: SoakWorld, rng: Rng) {
  const waiting = world.deferred.splice(0)
  const shuffled = waiting
    .map((send) => ({ send, order: rng.next() }))
    .sort((a, b) => a.order - b.order)
  for (const { send } of shuffled) await send()
  return waiting.length
}

/** One person: a random operation, a pause of 0.3 to 1.2 s, until `running()` says stop. */
export async function personLoop(
  world: SoakWorld,
  person: Person,
  rng: Rng,
  running: () => boolean,
) {
  while (running()) {
    const roll = rng.next()
    if (roll < 0.6) {
      const auction = startedAuction(world, rng)
      if (auction) await call(world, 'bid', person, `/api/auctions/${auction.id}/bid`)
    } else if (roll < 0.72) {
      const auction = upcomingAuction(world, rng)
      if (auction) await call(world, 'prebid', person, `/api/auctions/${auction.id}/prebid`)
    } else if (roll < 0.84) {
      const auction = rng.next() < 0.5 ? upcomingAuction(world, rng) : startedAuction(world, rng)
      if (auction)
        await call(world, 'auto-bid', person, `/api/auctions/${auction.id}/autobid`, {
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ bids: rng.int(2, 8) }),
        })
    } else if (roll < 0.88) {
      const auction = startedAuction(world, rng)
      if (auction)
        await call(world, 'auto-bid stop', person, `/api/auctions/${auction.id}/autobid`, {
          method: 'DELETE',
        })
    } else if (roll < 0.94) {
      await purchase(world, person, rng)
    }
    await sleep(rng.int(300, 1_200))
  }
}

/** Everyone stops their auto-bidders (its budget's rest comes back), so the auctions can end. */
export async function stopAutoBidders(world: SoakWorld, people: Person[]) {
  for (const person of people)
    for (const auction of world.auctions)
      await call(world, 'auto-bid stop', person, `/api/auctions/${auction.id}/autobid`, {
        method: 'DELETE',
      })
}

/**
 * The admin changes balances by a few bids with an Idempotency-Key: each change sent twice at
 * once and again a moment later (a double click, a retry after a timeout).
 */
export async function adminLoop(
  world: SoakWorld,
  admin: Person,
  people: Person[],
  rng: Rng,
  running: () => boolean,
) {
  let n = 0
  while (running()) {
    const person = rng.pick(people)
    const delta = rng.pick([-3, -2, -1, 1, 2, 3, 5])
    const key = `soak-${Date.now().toString(36)}-${n++}`
    const send = () =>
      call(world, 'admin adjustment', admin, `/api/admin/users/${person.id}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ bidBalanceAdjustment: { delta, reason: 'Проверка под нагрузкой' } }),
      })
    const answers = await Promise.all([send(), send()])
    await sleep(rng.int(200, 2_000))
    answers.push(await send())
    world.adjustments.push({
      key,
      userId: person.id,
      delta,
      confirmed: answers.some((a) => a.status === 200),
    })
    await sleep(rng.int(500, 1_500))
  }
}
