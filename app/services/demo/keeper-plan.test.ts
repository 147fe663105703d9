import { describe, expect, test } from 'vitest'
import { DEFAULT_KEEPER_OPTIONS, planKeeperPass, type KeeperSnapshot } from './keeper-plan.ts'

// The demo keeper's decisions against a clock the test sets (docs/decisions/048-demo-keeper.md).

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const now = Date.UTC(2031, 4, 17, 9, 0, 0)
const options = DEFAULT_KEEPER_OPTIONS
const startNow = now + options.startLeadMs

const snapshot = (parts: Partial<KeeperSnapshot>): KeeperSnapshot => ({
  now,
  live: [],
  upcoming: [],
  relistable: [],
  ...parts,
})
const lots = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `old-${i}`, title: `Product ${i}` }))

describe('demo keeper plan', () => {
  test('enough live, one starting soon and enough listed: nothing moves', () => {
    const plan = planKeeperPass(
      snapshot({
        live: ['a', 'b', 'c'],
        upcoming: [
          { id: 'soon', startTime: now + 2 * MINUTE },
          { id: 'u1', startTime: now + HOUR },
          { id: 'u2', startTime: now + 2 * HOUR },
          { id: 'u3', startTime: now + 3 * HOUR },
        ],
        relistable: lots(3),
      }),
      options,
    )
    expect(plan).toEqual([])
  })

  test('live below the floor: the next upcoming ones start now, soonest first', () => {
    const plan = planKeeperPass(
      snapshot({
        live: ['a'],
        upcoming: [
          { id: 'late', startTime: now + 3 * 24 * HOUR },
          { id: 'next', startTime: now + HOUR },
          { id: 'soon', startTime: now + 4 * MINUTE },
          { id: 'after', startTime: now + 2 * HOUR },
          { id: 'last', startTime: now + 4 * 24 * HOUR },
        ],
      }),
      options,
    )
    expect(plan.slice(0, 2)).toEqual([
      { kind: 'bringForward', auctionId: 'soon', startTime: startNow },
      { kind: 'bringForward', auctionId: 'next', startTime: now + options.startLeadMs },
    ])
    // The one starting soon went live: the next upcoming takes its place within minutes.
    expect(plan[2]).toEqual({
      kind: 'bringForward',
      auctionId: 'after',
      startTime: now + options.soonLeadMs,
    })
    expect(plan).toHaveLength(3)
  })

  test('one that starts within seconds counts as live already', () => {
    const plan = planKeeperPass(
      snapshot({
        live: ['a', 'b'],
        upcoming: [
          { id: 'now', startTime: now + 1_000 },
          { id: 'soon', startTime: now + 3 * MINUTE },
          ...['u1', 'u2', 'u3'].map((id, i) => ({ id, startTime: now + (i + 1) * HOUR })),
        ],
      }),
      options,
    )
    expect(plan).toEqual([])
  })

  test('nothing upcoming: finished lots are listed again, now, soon and spaced out later', () => {
    const plan = planKeeperPass(snapshot({ relistable: lots(10) }), options)
    const soon = now + options.soonLeadMs
    const spaced = (n: number) => soon + n * options.upcomingSpacingMs
    expect(plan).toEqual([
      { kind: 'relist', fromAuctionId: 'old-0', startTime: startNow },
      { kind: 'relist', fromAuctionId: 'old-1', startTime: startNow },
      { kind: 'relist', fromAuctionId: 'old-2', startTime: startNow },
      { kind: 'relist', fromAuctionId: 'old-3', startTime: soon },
      { kind: 'relist', fromAuctionId: 'old-4', startTime: spaced(1) },
      { kind: 'relist', fromAuctionId: 'old-5', startTime: spaced(2) },
      { kind: 'relist', fromAuctionId: 'old-6', startTime: spaced(3) },
    ])
  })

  test('upcoming ones are brought forward before lots are listed again', () => {
    const plan = planKeeperPass(
      snapshot({
        live: ['a', 'b'],
        upcoming: [{ id: 'next', startTime: now + 2 * 24 * HOUR }],
        relistable: lots(2),
      }),
      options,
    )
    expect(plan).toEqual([
      { kind: 'bringForward', auctionId: 'next', startTime: startNow },
      { kind: 'relist', fromAuctionId: 'old-0', startTime: now + options.soonLeadMs },
      {
        kind: 'relist',
        fromAuctionId: 'old-1',
        startTime: now + options.soonLeadMs + options.upcomingSpacingMs,
      },
    ])
  })

  test('nothing to bring forward or list again: no move is invented', () => {
    expect(planKeeperPass(snapshot({}), options)).toEqual([])
  })

  test('the same clock an hour later plans from what it sees then', () => {
    const later = now + HOUR
    const plan = planKeeperPass(
      {
        now: later,
        live: [],
        upcoming: [{ id: 'u', startTime: later + 10 * MINUTE }],
        relistable: lots(1),
      },
      { ...options, minUpcoming: 0 },
    )
    expect(plan).toEqual([
      { kind: 'bringForward', auctionId: 'u', startTime: later + options.startLeadMs },
      { kind: 'relist', fromAuctionId: 'old-0', startTime: later + options.startLeadMs },
    ])
  })
})
