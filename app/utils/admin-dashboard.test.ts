import { describe, expect, test } from 'vitest'
import { dashboardHref, dashboardUrl, legacyDialogPath } from './admin-dashboard.ts'

describe('dashboard URLs', () => {
  test("carry only the dashboard's own pages", () => {
    expect(dashboardHref('/auctions/new', '?page=2&botsPage=3&edit=x&index')).toBe(
      '/admin/auctions/new?page=2&botsPage=3',
    )
    expect(dashboardHref('', '')).toBe('/admin')
    expect(dashboardHref('', '?page=2&botsPage=3', { page: null, botsPage: '4' })).toBe(
      '/admin?botsPage=4',
    )
  })

  test('an action goes back to the dashboard with its pages, whatever the path', () => {
    const request = new Request('http://site.kg/admin/auctions/a1/end?page=4&redirectTo=//evil')
    expect(dashboardUrl(request)).toBe('/admin?page=4')
    expect(dashboardUrl(request, '/auctions/a1/edit')).toBe('/admin/auctions/a1/edit?page=4')
  })
})

describe('older dialog URLs', () => {
  const path = (url: string) => legacyDialogPath(new URL(url, 'http://site.kg'))

  test('open the dialog route they meant', () => {
    expect(path('/admin?create=1&page=2')).toBe('/auctions/new')
    expect(path('/admin?edit=a1')).toBe('/auctions/a1/edit')
    expect(path('/admin?confirm=end:a1')).toBe('/auctions/a1/end')
    expect(path('/admin?confirm=delete:a1')).toBe('/auctions/a1/delete')
    expect(path('/admin/?confirm=deleteBot:b1')).toBe('/bots/b1/delete')
    expect(path('/admin?edit=%3Cscript%3E')).toBe('/auctions/%3Cscript%3E/edit')
  })

  test('anything else is the dashboard itself', () => {
    for (const url of [
      '/admin',
      '/admin?page=2',
      '/admin?create=2',
      `/admin?edit=${'x'.repeat(65)}`,
      '/admin?confirm=drop:a1',
      '/admin/auctions/new?create=1',
    ]) {
      expect(path(url)).toBeNull()
    }
  })
})
