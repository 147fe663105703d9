import { expect, test } from 'vitest'
import { settingsSchema } from './admin-settings.ts'

// The win limit of the settings (docs/rules.md#fair-play-auctions).

const settings = {
  currency: 'сом',
  currencySymbol: 'сом',
  siteName: 'Аукцион',
  language: 'ru',
}
const winLimit = (value: unknown) => {
  const parsed = settingsSchema.safeParse({ ...settings, winLimit: value })
  return parsed.success ? parsed.data.winLimit : parsed.error.issues.map((issue) => issue.message)
}

test('the win limit is a whole number from 0 (off, or empty) to 100; left out, unchanged', () => {
  for (const [value, limit] of [
    [0, 0],
    ['', 0],
    ['3', 3],
    [100, 100],
    [undefined, undefined],
  ] as const)
    expect(winLimit(value), String(value)).toBe(limit)
  for (const value of [-1, '-1', 101, 1.5, 'три', null])
    expect(winLimit(value), String(value)).toEqual(['errors.winLimit'])
})
