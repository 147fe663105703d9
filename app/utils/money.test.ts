import { describe, expect, test } from 'vitest'
import { formatMoney, parseMoney, toMajor } from './money.ts'

// Intl puts a narrow no-break space between thousands in ru-RU; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

describe('money', () => {
  test('formats minor units in the Russian number format with two decimals and the symbol', () => {
    expect(plain(formatMoney(123456, 'сом'))).toBe('1 234,56 сом')
    expect(plain(formatMoney(1, 'сом'))).toBe('0,01 сом')
    expect(plain(formatMoney(0, '$'))).toBe('0,00 $')
    expect(plain(formatMoney(17990000, '₸'))).toBe('179 900,00 ₸')
  })

  test('speaks som in the JSON API', () => {
    expect(toMajor(1)).toBe(0.01)
    expect(toMajor(150)).toBe(1.5)
  })

  test('parses amounts with a dot or a comma, at most two decimals', () => {
    expect(parseMoney('1799')).toBe(179900)
    expect(parseMoney('0,5')).toBe(50)
    expect(parseMoney('12.34')).toBe(1234)
    expect(parseMoney(' 1 500 ')).toBe(150000)
    expect(parseMoney(15)).toBe(1500)
  })

  test('refuses what is not a non-negative amount', () => {
    for (const bad of ['', 'abc', '-1', '1.234', '1e5', '1,2,3', 'NaN', '9'.repeat(30)]) {
      expect(parseMoney(bad)).toBeNull()
    }
  })
})
