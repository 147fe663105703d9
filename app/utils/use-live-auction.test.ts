import { describe, expect, test } from 'vitest'
import { isOlder } from './use-live-auction.ts'

// Updates of an auction may reach a page out of order (app/utils/use-live-auction.ts): the page
// keeps the newest it has shown, by stage and then by bids.
describe('isOlder', () => {
  const at = (status: 'upcoming' | 'live' | 'finished', totalBids: number) => ({
    status,
    totalBids,
  })

  test('fewer bids in the same stage is older; as many or more is not', () => {
    expect(isOlder(at('live', 1), at('live', 2))).toBe(true)
    expect(isOlder(at('live', 2), at('live', 2))).toBe(false)
    expect(isOlder(at('live', 3), at('live', 2))).toBe(false)
  })

  test('an earlier stage is older whatever its bids; a later one is newer', () => {
    expect(isOlder(at('upcoming', 5), at('live', 0))).toBe(true)
    expect(isOlder(at('live', 9), at('finished', 2))).toBe(true)
    expect(isOlder(at('finished', 2), at('live', 9))).toBe(false)
    expect(isOlder(at('live', 0), at('upcoming', 4))).toBe(false)
  })

  test('every pair in a run of states: only going back is older', () => {
    const run = [at('upcoming', 0), at('live', 0), at('live', 1), at('live', 2), at('finished', 2)]
    run.forEach((a, i) =>
      run.forEach((b, j) => expect(isOlder(a, b), `${i} after ${j}`).toBe(i < j)),
    )
  })
})
