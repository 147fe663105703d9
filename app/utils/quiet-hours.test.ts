import { expect, test } from 'vitest'
import { bishkekHour, quietUntil } from '~/utils/quiet-hours.ts'

// Quiet hours in Bishkek time (UTC+6 all year).
const at = (utcHour: number, minute = 0) => Date.UTC(2026, 10, 27, utcHour, minute)

test('Bishkek is six hours ahead of UTC', () => {
  expect(bishkekHour(at(0))).toBe(6)
  expect(bishkekHour(at(18))).toBe(0)
})

test('quiet hours across midnight end at their last hour, the next morning', () => {
  const night = { quietFrom: 22, quietTo: 7 }
  expect(quietUntil(at(17, 30), night)).toBe(Date.UTC(2026, 10, 28, 1, 0)) // 23:30 -> 07:00
  expect(quietUntil(at(0, 59), night)).toBe(at(1)) // 06:59 -> 07:00
  expect(quietUntil(at(1), night)).toBeNull() // 07:00: over
  expect(quietUntil(at(15, 59), night)).toBeNull() // 21:59
  expect(quietUntil(at(16), night)).toBe(Date.UTC(2026, 10, 28, 1, 0)) // 22:00
})

test('quiet hours within a day; none when unset or empty', () => {
  expect(quietUntil(at(7, 15), { quietFrom: 13, quietTo: 15 })).toBe(at(9)) // 13:15 -> 15:00
  expect(quietUntil(at(9), { quietFrom: 13, quietTo: 15 })).toBeNull()
  expect(quietUntil(at(7), { quietFrom: null, quietTo: null })).toBeNull()
  expect(quietUntil(at(7), { quietFrom: 13, quietTo: 13 })).toBeNull()
})
