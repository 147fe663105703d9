import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { auditPaymentCredits } from '../../app/services/payments/audit.server.ts'
import { auditBalances, auditHolds, auditLateBids, type Engine } from '../../engine/index.ts'
import { startFreedomPayFake, type FreedomPayFake } from '../support/freedompay-fake.ts'
import {
  createPeople,
  createScenario,
  engineThrough,
  say,
  sleep,
  waitDrained,
  waitFor,
  type Person,
  type Scenario,
} from './harness.ts'
import {
  adminLoop,
  deliverDeferred,
  personLoop,
  refundLater,
  seeded,
  stopAutoBidders,
  Tally,
  type SoakWorld,
} from './soak-operations.ts'
import { purchasesSettled, reconcile, reconcilerSettings } from './soak-reconcile.ts'
import { SoakStack } from './soak-stack.ts'

// The money soak test (docs/operations.md "Money soak test"): people bid, prebid, run
// auto-bidders and buy bid packages at random (from a printed seed; SOAK_SEED repeats it) while
// an admin adjusts balances, and Redis is restarted, an instance killed, Postgres taken away and
// Redis emptied and recovered by the runbook. Some packages are refunded in Freedom Pay's console:
// after their callback was lost, or after they were credited and their bids perhaps spent. Then
// every money invariant is checked by the audits `npm run balances` runs: each balance equals its
// ledger, each paid package not refunded is credited exactly once, each refunded one's bids were
// taken back as far as the balance held them and the rest left on record for staff, each
// charged prebid became a bid or a refund, no bid came after its auction's end.

const SEED = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31))
const PEOPLE = 10
/**
 * The timeline below runs at this scale: 0.6 in the suite (81 s of operations), 1 or more for a
 * longer soak (SOAK_SCALE=1.5); the faults' own lengths (an instance down 4 s, Postgres away
 * 12 s) do not change.
 */
const SCALE = Number(process.env.SOAK_SCALE ?? 0.6)
if (!(SCALE >= 0.5)) throw new Error(`SOAK_SCALE is ${process.env.SOAK_SCALE}: 0.5 or more`)
const at = (seconds: number) => Math.round(seconds * SCALE)
/** When each fault comes, in seconds after the first auctions start; the soak ends at END_AT. */
const AT = { redisRestart: at(15), kill: at(35), postgresAway: at(60), redisLoss: at(90) }
const END_AT = at(135)
/** Auctions by when they start (seconds after the soak's start): three live at once, then waves. */
const WAVES = [
  { at: 0, count: 3 },
  { at: at(30), count: 2 },
  { at: at(70), count: 2 },
  { at: at(120), count: 2 },
]

let scenario: Scenario
let fake: FreedomPayFake
let stack: SoakStack | undefined
let engine: Engine | undefined

beforeAll(async () => {
  scenario = await createScenario('soak', inject('faultsDatabaseUrl'))
  // The fake's half hour between callback retries, shortened to 2 s.
  fake = await startFreedomPayFake('548856', 'soak-freedompay-secret-key', 2_000)
})

afterAll(async () => {
  await fake?.stop()
  engine?.redis.disconnect()
  await stack?.stop()
  await scenario?.cleanup()
})

async function adminPerson(): Promise<Person> {
  const [admin] = await createPeople(scenario.prisma, 1)
  await scenario.prisma.user.update({ where: { id: admin!.id }, data: { role: 'admin' } })
  return admin!
}

async function createAuction(world: SoakWorld, admin: Person, startsAt: number, n: number) {
  const response = await fetch(`${world.target()}/api/admin/auctions`, {
    method: 'POST',
    headers: { Cookie: admin.cookie, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: `Лот ${n}`,
      retailPrice: 10_000,
      startTime: new Date(startsAt).toISOString(),
    }),
  })
  expect(response.status, await response.clone().text()).toBe(201)
  const { id } = (await response.json()) as { id: string }
  world.auctions.push({ id, startsAt })
}

test('money soak: random bids, prebids, auto-bids, purchases and adjustments through faults keep every invariant', async () => {
  const started = Date.now()
  say(`money soak: seed ${SEED} (SOAK_SEED=${SEED} makes the same choices)`)
  stack = new SoakStack(scenario, fake)
  await stack.start()
  engine = engineThrough(scenario, stack.redisUrl)
  const people = await createPeople(scenario.prisma, PEOPLE)
  const admin = await adminPerson()
  const world: SoakWorld = {
    target: stack.target,
    auctions: [],
    fake,
    tally: new Tally(),
    purchases: [],
    adjustments: [],
    deferred: [],
    toRefund: [],
  }
  const soakStart = Date.now() + 2_000
  let n = 0
  for (const wave of WAVES)
    for (let i = 0; i < wave.count; i++)
      await createAuction(world, admin, soakStart + wave.at * 1_000, n++)

  let running = false
  let loops: Promise<void>[] = []
  const rng = seeded(SEED)
  const resume = () => {
    running = true
    loops = [
      ...people.map((person, i) => personLoop(world, person, seeded(SEED + i + 1), () => running)),
      adminLoop(world, admin, people, seeded(SEED + 1_000), () => running),
    ]
  }
  const pause = async () => {
    running = false
    await Promise.all(loops)
  }
  const until = (seconds: number) => sleep(Math.max(0, soakStart + seconds * 1_000 - Date.now()))

  await until(0)
  resume()
  await until(AT.redisRestart)
  await stack.restartRedis()
  await until(AT.kill)
  // Reordered callbacks arrive while an instance is down and while Postgres is away: those
  // answered other than 200 come again on the fake's retries, or are left to reconciliation.
  await stack.killInstance(1, 4_000, () => deliverDeferred(world, rng))
  await until(AT.postgresAway)
  await stack.postgresAway(12_000, () => deliverDeferred(world, rng))

  // Redis loses its data once what was acknowledged is in Postgres: the runbook then brings
  // back what Postgres holds (the outbox's last moments are AOF's matter, docs/operations.md).
  await until(AT.redisLoss)
  await pause()
  await fake.retriesDone()
  await waitDrained(engine, 60_000)
  const balances = await stack.emptyRedis()
  say(`after the loss of Redis, npm run balances: ${balances.replace(/\n/g, ' | ')}`)
  // Changes sent before the loss are sent once more after it: still applied once.
  const resent = world.adjustments.slice(-3)
  for (const adjustment of resent) {
    const response = await fetch(`${world.target()}/api/admin/users/${adjustment.userId}`, {
      method: 'PATCH',
      headers: {
        Cookie: admin.cookie,
        'Content-Type': 'application/json',
        'Idempotency-Key': adjustment.key,
      },
      body: JSON.stringify({
        bidBalanceAdjustment: { delta: adjustment.delta, reason: 'Проверка под нагрузкой' },
      }),
    })
    world.tally.add('admin adjustment after the loss', String(response.status))
  }
  resume()
  await until(END_AT)
  await pause()
  const soakSeconds = Math.round((Date.now() - soakStart) / 1_000)

  // The end: callbacks delivered and retried, auctions finished, lost payments reconciled.
  await stopAutoBidders(world, people)
  await deliverDeferred(world, rng)
  await fake.retriesDone()
  const ids = world.auctions.map((a) => a.id)
  await waitFor(
    'every auction to finish',
    // One that finished before the loss of Redis is in Postgres only (finished ones are not loaded).
    async () => (await engine!.getStates(ids)).every((s) => !s || s.status === 'finished'),
    30_000,
    500,
  ).catch(async (error: unknown) => {
    const open = (await engine!.getStates(ids)).filter((s) => s?.status !== 'finished')
    throw new Error(`${String(error)}: ${JSON.stringify(open)}`)
  })
  const settings = reconcilerSettings(scenario, stack.redisUrl, fake)
  const reconciled = await reconcile(engine, settings)
  // Credited packages refunded in Freedom Pay's console, then found by the reconciler's refund
  // checks: their bids are taken back as far as the balances still hold them.
  const refundedLater = refundLater(world, rng)
  const refundChecks = await reconcile(engine, settings, { refunds: true })
  await waitDrained(engine, 60_000)
  await waitFor(
    'the finished auctions in Postgres',
    async () =>
      (await scenario.prisma.auction.count({ where: { id: { in: ids }, status: 'finished' } })) ===
      ids.length,
    15_000,
  )

  // --- the invariants -------------------------------------------------------------------------
  const audit = await auditBalances(engine)
  const holds = await auditHolds(engine)
  const payments = await auditPaymentCredits(scenario.prisma)
  const lateBids = await auditLateBids(scenario.prisma)
  const { unsettled, refundsWrong, owed } = await purchasesSettled(scenario.prisma, world)
  const adjusted = await scenario.prisma.balanceLedger.findMany({
    where: { reason: 'admin_adjust' },
    select: { reference: true, amount: true },
  })
  const appliedOf = (key: string) => adjusted.filter((row) => row.reference.endsWith(`:${key}`))
  const adjustmentsWrong = world.adjustments.filter((a) => {
    const applied = appliedOf(a.key)
    if (applied.length > 1) return true
    return a.confirmed && (applied.length !== 1 || applied[0]!.amount !== a.delta)
  })

  const callbacks = fake.callbacks
  const deliveries: Record<string, number> = {}
  for (const p of world.purchases) deliveries[p.delivery] = (deliveries[p.delivery] ?? 0) + 1
  say(
    `money soak survived in ${soakSeconds} s of operations (${Math.round((Date.now() - started) / 1_000)} s in all): ` +
      `${world.tally.total()} operations: ${world.tally.describe()}`,
  )
  say(
    `faults: ${JSON.stringify(stack.faults)}; purchases by delivery ${JSON.stringify(deliveries)}; ` +
      `callbacks sent ${callbacks.length} (retries after a non-200 answer ${callbacks.filter((c) => c.attempt > 0).length}, ` +
      `answered ${JSON.stringify(countBy(callbacks.map((c) => String(c.status))))}); ` +
      `reconciliation asked ${reconciled.checked}, settled ${reconciled.settled}; ` +
      `refunded later ${refundedLater}, refund checks ${refundChecks.refundChecks} found ` +
      `${refundChecks.refunded} (bids left with their buyers ${owed}); ` +
      `admin adjustments ${world.adjustments.length} sent 3 times each`,
  )
  say(
    `invariants: ${audit.checked} balances, ${audit.mismatches.length} differ from their ledger; ` +
      `charged prebids neither bid nor refunded ${holds.prebids.length}, auto-bid budgets not accounted for ${holds.budgets.length}; ` +
      `payment credit problems ${payments.length}; purchases not settled as the provider says ${unsettled.length}; ` +
      `refunds neither taken back nor left on record ${refundsWrong.length}; ` +
      `late bids ${lateBids.length}; adjustments not applied exactly once ${adjustmentsWrong.length}`,
  )
  expect(audit.outboxLag).toBe(0)
  expect(audit.mismatches, 'balances that differ from their ledger').toEqual([])
  expect(holds.prebids, 'charged prebids neither a bid nor refunded').toEqual([])
  expect(holds.budgets, 'auto-bid budgets neither placed nor given back').toEqual([])
  expect(payments, 'paid packages not credited exactly once, refunds not taken back once').toEqual(
    [],
  )
  expect(unsettled, 'purchases whose payment did not end as the provider says').toEqual([])
  expect(refundsWrong, 'refunds whose bids were neither taken back nor left on record').toEqual([])
  expect(refundChecks.refunded).toBe(refundedLater)
  expect(lateBids, 'bids after the end of their auction').toEqual([])
  expect(adjustmentsWrong, 'admin adjustments not applied exactly once').toEqual([])
  expect(world.tally.total('bid')).toBeGreaterThan(100)
  for (const app of stack.apps) expect(app?.exited() ?? null, 'an instance died').toBeNull()
}, 360_000)

function countBy(values: string[]) {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}
