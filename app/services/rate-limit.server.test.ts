import { expect, test } from 'vitest'
import { hit } from './rate-limit.server.ts'

// The limits count hits over a sliding window: at most `limit` in any span of the window's
// length, also across the moments a clock-aligned window would start afresh.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const unique = () => `sliding-${Date.now()}-${Math.random().toString(36).slice(2)}`

test('a full window makes the next hit wait until its oldest hit leaves, never longer', async () => {
  const key = unique()
  const limit = { limit: 3, windowSeconds: 2 }
  // RATE_LIMIT_SCALE is 1 unless set: these counts are the limit's own.
  for (let i = 0; i < 3; i += 1) expect(await hit('test', key, limit)).toBe(0)
  const wait = await hit('test', key, limit)
  expect(wait).toBeGreaterThanOrEqual(1)
  expect(wait).toBeLessThanOrEqual(2)
  // A refused hit takes no place: once the three have left, three more go through.
  await sleep(2_100)
  for (let i = 0; i < 3; i += 1) expect(await hit('test', key, limit)).toBe(0)
})

test('hits leave the window one by one: a burst at a window boundary gets no second allowance', async () => {
  const key = unique()
  const limit = { limit: 3, windowSeconds: 4 }
  const first = Date.now()
  expect(await hit('test', key, limit)).toBe(0)
  expect(await hit('test', key, limit)).toBe(0)
  await sleep(2_000)
  const third = Date.now()
  expect(await hit('test', key, limit)).toBe(0)
  // The first two have left; the third is still within the last four seconds.
  await sleep(Math.max(0, first + 4_150 - Date.now()))
  expect(Date.now() - third).toBeLessThan(4_000)
  expect(await hit('test', key, limit)).toBe(0)
  expect(await hit('test', key, limit)).toBe(0)
  expect(await hit('test', key, limit)).toBeGreaterThan(0)
})
