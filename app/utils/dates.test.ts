import { describe, expect, test } from 'vitest'
import { formatCountdown, formatDate, formatDateTime } from './dates.ts'

describe('dates', () => {
  test('prints dates in ru-RU in Bishkek time whatever the machine zone', () => {
    // 2026-01-31 20:30 UTC is 2026-02-01 02:30 in Bishkek (UTC+6).
    expect(formatDate('2026-01-31T20:30:00Z')).toBe('01.02.2026')
    expect(formatDateTime('2026-01-31T20:30:00Z')).toBe('01.02.2026, 02:30')
  })

  test('counts down as mm:ss under an hour and hh:mm:ss from an hour', () => {
    expect(formatCountdown(10_000)).toBe('00:10')
    expect(formatCountdown(9_001)).toBe('00:10')
    expect(formatCountdown(59 * 60_000 + 59_000)).toBe('59:59')
    expect(formatCountdown(3_600_000)).toBe('01:00:00')
    expect(formatCountdown(2 * 86_400_000 + 5_000)).toBe('48:00:05')
  })

  test('never shows a negative time', () => {
    expect(formatCountdown(-5_000)).toBe('00:00')
  })
})
