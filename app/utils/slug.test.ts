import { describe, expect, test } from 'vitest'
import { INVALID_SLUG, slugify } from './slug.ts'

describe('slugify', () => {
  test('a missing title or displayId gives the fixed slug', () => {
    expect(slugify('', 'PA-000001')).toBe(INVALID_SLUG)
    expect(slugify('iPhone 15', '')).toBe(INVALID_SLUG)
    expect(slugify(null, 'PA-1')).toBe(INVALID_SLUG)
    expect(slugify('iPhone', undefined)).toBe(INVALID_SLUG)
    expect(INVALID_SLUG).toBe('invalid-auction')
  })

  test('lowercases, joins words with hyphens and appends the lowercased id', () => {
    expect(slugify('iPhone 15 Pro Max', 'PA-000042')).toBe('iphone-15-pro-max-pa-000042')
  })

  test('keeps Cyrillic letters and drops other symbols', () => {
    expect(slugify('Смартфон Samsung Galaxy S24 (256 ГБ)!', 'PA-7')).toBe(
      'смартфон-samsung-galaxy-s24-256-гб-pa-7',
    )
    expect(slugify('Ёлка — «новогодняя»', 'X1')).toBe('ёлка-новогодняя-x1')
  })

  test('drops letters outside a-z and Cyrillic, such as Georgian and accented Latin', () => {
    expect(slugify('Café ტელეფონი phone', 'A1')).toBe('caf-phone-a1')
  })

  test('collapses runs of whitespace and hyphens', () => {
    expect(slugify('a   b -- c\t\nd', 'id')).toBe('a-b-c-d-id')
  })

  test('cuts the title part to 35 characters', () => {
    const slug = slugify('a'.repeat(50), 'PA-1')
    expect(slug).toBe(`${'a'.repeat(35)}-pa-1`)
    const words = slugify('Ноутбук Apple MacBook Air 13 M3 16GB 512GB Midnight', 'PA-9')
    expect(words.slice(0, -'-pa-9'.length)).toHaveLength(35)
  })

  test('replaces slashes and backslashes in the display id with hyphens', () => {
    expect(slugify('Lot', 'AUC/2024\\001')).toBe('lot-auc-2024-001')
  })
})
