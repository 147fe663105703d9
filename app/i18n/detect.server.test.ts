import { describe, expect, test } from 'vitest'
import { pickFromAcceptLanguage } from './detect.server.ts'

describe('language from Accept-Language', () => {
  test('picks the first language we have, by weight', () => {
    expect(pickFromAcceptLanguage('ky-KG,ru;q=0.8')).toBe('ky')
    expect(pickFromAcceptLanguage('de-DE,en;q=0.5,ru;q=0.9')).toBe('ru')
    expect(pickFromAcceptLanguage('ka')).toBe('ka')
  })

  test('ignores languages we do not have and zero weights', () => {
    expect(pickFromAcceptLanguage('de,fr;q=0.8')).toBeNull()
    expect(pickFromAcceptLanguage('en;q=0, de')).toBeNull()
    expect(pickFromAcceptLanguage('')).toBeNull()
    expect(pickFromAcceptLanguage(null)).toBeNull()
  })
})
