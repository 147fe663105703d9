import { describe, expect, test } from 'vitest'
import { balanceDeltaSchema, balanceReasonSchema, userEditSchema } from './admin-users.ts'

describe('a balance change', () => {
  test('is a whole number of bids with its sign, as a form or a JSON body writes it', () => {
    for (const [value, delta] of [
      ['+10', 10],
      ['-5', -5],
      ['\u22125', -5],
      [' 1 000 ', 1000],
      [7, 7],
      [-10_000_000, -10_000_000],
    ] as const) {
      expect(balanceDeltaSchema.parse(value), String(value)).toBe(delta)
    }
  })

  test('never 0, a fraction, an exponent, words or more than 10,000,000 either way', () => {
    for (const value of [
      0,
      '0',
      '+0',
      1.5,
      '1.5',
      '1e3',
      '5 бонус',
      '--5',
      null,
      10_000_001,
      -1e21,
    ]) {
      expect(balanceDeltaSchema.safeParse(value).error?.issues[0]?.message, String(value)).toBe(
        'errors.balanceDelta',
      )
    }
  })

  test('needs a reason of 1 to 200 characters, kept trimmed', () => {
    expect(balanceReasonSchema.parse('  Компенсация ')).toBe('Компенсация')
    expect(balanceReasonSchema.safeParse('   ').error?.issues[0]?.message).toBe(
      'errors.balanceReason',
    )
    expect(balanceReasonSchema.safeParse('x'.repeat(201)).error?.issues[0]?.message).toBe(
      'errors.tooLong',
    )
  })

  test('an edit sends an adjustment or a value with the value seen, not both', () => {
    const messages = (input: unknown) =>
      userEditSchema.safeParse(input).error?.issues.map((issue) => issue.message)
    expect(messages({ bidBalanceAdjustment: { delta: 5, reason: 'x' } })).toBeUndefined()
    expect(
      messages({ bidBalance: 5, expectedBidBalance: 3, bidBalanceReason: 'x' }),
    ).toBeUndefined()
    expect(messages({ bidBalance: 5, bidBalanceAdjustment: { delta: 5, reason: 'x' } })).toEqual([
      'errors.balanceBoth',
    ])
    expect(messages({ bidBalance: 5, expectedBidBalance: 3 })).toEqual(['errors.balanceReason'])
    expect(messages({ expectedBidBalance: 3 })).toEqual(['errors.invalid'])
  })
})
