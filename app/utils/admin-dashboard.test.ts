import { describe, expect, test } from 'vitest'
import { dashboardHref, dashboardUrl } from './admin-dashboard.ts'

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
