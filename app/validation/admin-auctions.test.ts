import { describe, expect, test } from 'vitest'
import { auctionCreateSchema, auctionUpdateSchema } from './admin-auctions.ts'

// The fair-play fields of an auction (docs/rules.md#fair-play-auctions), as the form and the JSON
// call send them.

const auction = { title: 'Лот', retailPrice: '10', startTime: '2099-01-01T10:00' }
const fairPlay = (
  body: Record<string, unknown>,
  schema: typeof auctionCreateSchema | typeof auctionUpdateSchema = auctionUpdateSchema,
) => {
  const parsed = schema.safeParse({ ...auction, ...body })
  return parsed.success
    ? { beginnerOnly: parsed.data.beginnerOnly, lockAfterMinutes: parsed.data.lockAfterMinutes }
    : parsed.error.issues.map((issue) => issue.message)
}

describe('beginners only', () => {
  test('a JSON boolean, or the form: its hidden "false" first, then "true" when ticked', () => {
    expect(fairPlay({ beginnerOnly: true })).toMatchObject({ beginnerOnly: true })
    expect(fairPlay({ beginnerOnly: false })).toMatchObject({ beginnerOnly: false })
    expect(fairPlay({ beginnerOnly: ['false', 'true'] })).toMatchObject({ beginnerOnly: true })
    expect(fairPlay({ beginnerOnly: 'false' })).toMatchObject({ beginnerOnly: false })
  })

  test('left out is "unchanged" (a disabled field, an older client); anything else is refused', () => {
    expect(fairPlay({})).toEqual({ beginnerOnly: undefined, lockAfterMinutes: undefined })
    for (const beginnerOnly of ['yes', null, 2])
      expect(fairPlay({ beginnerOnly }), String(beginnerOnly)).toEqual(['errors.beginnerOnly'])
  })
})

describe('lock after N minutes', () => {
  test('a whole number from 1 to 1440; empty or null never locks', () => {
    for (const [value, minutes] of [
      [1, 1],
      ['30', 30],
      [' 1440 ', 1440],
      ['', null],
      [null, null],
    ] as const)
      expect(fairPlay({ lockAfterMinutes: value }), String(value)).toMatchObject({
        lockAfterMinutes: minutes,
      })
  })

  test('never 0, negative, a fraction, over a day or words', () => {
    for (const lockAfterMinutes of [0, '0', -5, '-5', 2.5, '2.5', 1441, '1e3', 'ten', true])
      for (const schema of [auctionCreateSchema, auctionUpdateSchema])
        expect(fairPlay({ lockAfterMinutes }, schema), String(lockAfterMinutes)).toEqual([
          'errors.lockAfterMinutes',
        ])
  })
})
