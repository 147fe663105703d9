import { describe, expect, test } from 'vitest'
import { OLD_DIALOGS, oldDialogUrl } from './old-dialogs.server.ts'

describe("the dashboard's older dialog URLs", () => {
  /** The dialog's path under /admin, or null. */
  const path = (url: string) =>
    oldDialogUrl(new URL(url, 'http://site.kg'), OLD_DIALOGS.dashboard)
      ?.replace(/^\/admin/, '')
      .replace(/\?.*$/, '') ?? null

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

describe("the other lists' older dialog URLs", () => {
  const to = (url: string, list: keyof typeof OLD_DIALOGS) =>
    oldDialogUrl(new URL(url, 'http://site.kg'), OLD_DIALOGS[list])

  test("open the dialog's own route, the list's query kept and nothing else", () => {
    expect(to('/admin/users?search=ai&page=2&confirm=delete:u1', 'users')).toBe(
      '/admin/users/u1/delete?search=ai&page=2',
    )
    expect(to('/admin/users?edit=u1&x=1', 'users')).toBe('/admin/users/u1/edit')
    expect(to('/admin/users?activity=u%2F1', 'users')).toBe('/admin/users/u%2F1/activity')
    expect(to('/admin/orders?status=paid&refund=o1', 'orders')).toBe(
      '/admin/orders/o1/refund?status=paid',
    )
    expect(to('/admin/finished-auctions?page=3&confirm=delete:a1', 'finished')).toBe(
      '/admin/finished-auctions/a1/delete?page=3',
    )
    expect(to('/admin/finished-auctions/?stats=a1', 'finished')).toBe(
      '/admin/finished-auctions/a1/stats',
    )
  })

  test('anything else is the list itself, or a child route already', () => {
    expect(to('/admin/users?search=ai', 'users')).toBeNull()
    expect(to('/admin/users?confirm=end:u1', 'users')).toBeNull()
    expect(to(`/admin/orders?refund=${'x'.repeat(65)}`, 'orders')).toBeNull()
    expect(to('/admin/orders?refund=', 'orders')).toBeNull()
    expect(to('/admin/users/u1/delete?confirm=delete:u2', 'users')).toBeNull()
    expect(to('/admin/orders/o1/refund?refund=o2', 'orders')).toBeNull()
  })
})
