import { expect, test } from 'vitest'
import { describePlan, othersBusyNow, planFor, RATES } from './test-plan.ts'

// How npm test spreads its work over a machine (scripts/test-plan.ts).

test('on 2 cores: 3 unit files and 2 browser files at a time, the fault tests beside the unit tests', () => {
  expect(planFor(2)).toEqual({
    cores: 2,
    othersBusy: 0,
    unitWorkers: 3,
    browserWorkers: 2,
    faultsBesideUnit: true,
  })
})

test('one core: one browser file at a time, the fault tests after the unit tests', () => {
  expect(planFor(1)).toMatchObject({ unitWorkers: 2, browserWorkers: 1, faultsBesideUnit: false })
})

test('more cores: more files at a time, within what the lanes were measured to use', () => {
  const eight = planFor(8)
  expect(eight.browserWorkers).toBe(8)
  expect(eight.unitWorkers).toBe(8)
  const four = planFor(4)
  const used = RATES.alone + RATES.faults + four.browserWorkers * RATES.browserFile
  expect(used).toBeLessThanOrEqual(4)
  expect(used + RATES.browserFile).toBeGreaterThan(4)
})

test('other work is said, not planned around', () => {
  expect(planFor(2, 2)).toMatchObject({ browserWorkers: 2, othersBusy: 2 })
  expect(describePlan(planFor(2, 2))).toContain('other work keeps 2.0 of them busy')
  expect(describePlan(planFor(2, 0.1))).not.toContain('other work')
})

test('the busy cores of the machine are measured from its counters', async () => {
  const busy = await othersBusyNow(200)
  expect(busy).toBeGreaterThanOrEqual(0)
})
