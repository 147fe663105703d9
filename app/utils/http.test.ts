import { describe, expect, test } from 'vitest'
import { combineHeaders, safeRedirect } from './http.ts'

describe('safeRedirect', () => {
  test('keeps same-site paths', () => {
    expect(safeRedirect('/auctions?page=2')).toBe('/auctions?page=2')
    expect(safeRedirect('/')).toBe('/')
    expect(safeRedirect('/auction/iphone-15?x=%2F%2Fa')).toBe('/auction/iphone-15?x=%2F%2Fa')
  })

  test('refuses anything that could leave the site', () => {
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      '/%09/evil.example',
      '/%2F/evil.example',
      '/%5Cevil.example',
      '\t//evil.example',
      '/ok\r\nSet-Cookie: a=1',
      '/%E0%A4%A',
      '',
      null,
      undefined,
    ]) {
      expect(safeRedirect(bad, '/home')).toBe('/home')
    }
  })
})

test('combineHeaders keeps every Set-Cookie', () => {
  const headers = combineHeaders({ 'Set-Cookie': 'a=1' }, null, {
    'Set-Cookie': 'b=2',
    Vary: 'Cookie',
  })
  expect(headers.getSetCookie()).toEqual(['a=1', 'b=2'])
  expect(headers.get('Vary')).toBe('Cookie')
})
