import { beforeAll, describe, expect, test } from 'vitest'
import { call, newAccount } from './api.ts'
import { e2eDatabase } from './auctions.ts'
import { adminAndUser } from './admin-api.ts'
import { getPage, type Language } from './pages.ts'

// Runs alone: it reads the lists and counts of all payments.

// The admin's payments: /api/admin/payments and /admin/payments (docs/payments.md).

let admin = ''
let user = ''

beforeAll(async () => {
  ;({ admin, user } = await adminAndUser())
})

describe('admin payments: /api/admin/payments and /admin/payments (docs/payments.md)', () => {
  const statuses = ['pending', 'paid', 'held', 'refunded', 'failed', 'cancelled'] as const
  type Status = (typeof statuses)[number]
  type Row = {
    id: string
    status: Status
    amount: number
    currency: string
    purpose: string
    bids: number
    provider: string
    createdAt: string
    user: { id: string; username: string } | null
  }
  let buyer: Awaited<ReturnType<typeof newAccount>>
  /** One payment of this test's buyer in each status, a second apart, newest last. */
  const mine = new Map<Status, string>()

  beforeAll(async () => {
    buyer = await newAccount()
    const start = Date.now() - statuses.length * 1000
    for (const [i, status] of statuses.entries()) {
      const row = await e2eDatabase().payment.create({
        data: {
          userId: buyer.id,
          provider: 'sandbox',
          purpose: 'package',
          packageId: 'bids-50',
          bids: 50,
          amount: 750_00,
          status,
          createdAt: new Date(start + i * 1000),
        },
        select: { id: true },
      })
      mine.set(status, row.id)
    }
  })

  /** The whole `<a …>label</a>` of the page's link to `href`, whatever the order of its attributes. */
  const filterLink = (html: string, href: string) =>
    (html.match(/<a [^>]*>[^<]*<\/a>/g) ?? []).find((tag) =>
      tag.includes(` href="${href.replace(/&/g, '&amp;')}"`),
    ) ?? ''

  const list = (query: string, lang = 'ru') =>
    call(`/api/admin/payments${query}`, { method: 'GET', cookie: admin, lang })
  const rows = (json: Record<string, unknown>) => json.payments as Row[]

  test('each status filters to its own payments, newest first, money in som', async () => {
    for (const status of statuses) {
      const answer = await list(`?status=${status}`)
      expect(answer.status, status).toBe(200)
      expect(answer.json).toMatchObject({ status, page: 1 })
      const payments = rows(answer.json)
      expect(
        payments.every((p) => p.status === status),
        status,
      ).toBe(true)
      expect(
        payments.find((p) => p.id === mine.get(status)),
        status,
      ).toMatchObject({
        status,
        amount: 750,
        currency: 'KGS',
        purpose: 'package',
        bids: 50,
        provider: 'sandbox',
        user: { id: buyer.id, username: buyer.name },
      })
      expect(answer.json.total as number).toBeGreaterThanOrEqual(payments.length)
    }
    const all = await list('')
    expect(all.status).toBe(200)
    expect(all.json.status).toBeNull()
    const times = rows(all.json).map((p) => Date.parse(p.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    // An empty filter is no filter.
    expect((await list('?status=')).json.total).toBe(all.json.total)
  })

  test('20 a page; a page that is no number is the first, one past the end the last', async () => {
    // Enough failed payments of the buyer's for two pages whatever other tests left.
    await e2eDatabase().payment.createMany({
      data: Array.from({ length: 21 }, (_, i) => ({
        userId: buyer.id,
        provider: 'sandbox',
        amount: 150_00,
        status: 'failed' as const,
        failureReason: 'declined',
        createdAt: new Date(Date.now() - 60_000 - i * 1000),
      })),
    })
    const first = await list('?status=failed')
    const total = first.json.total as number
    expect(total).toBeGreaterThanOrEqual(22)
    expect(first.json).toMatchObject({ page: 1, totalPages: Math.ceil(total / 20) })
    expect(rows(first.json)).toHaveLength(20)
    const second = await list('?status=failed&page=2')
    expect(second.json.page).toBe(2)
    const ids = new Set(rows(first.json).map((p) => p.id))
    expect(rows(second.json).length).toBeGreaterThan(0)
    expect(rows(second.json).some((p) => ids.has(p.id))).toBe(false)
    const oldestOnFirst = Date.parse(rows(first.json).at(-1)!.createdAt)
    expect(rows(second.json).every((p) => Date.parse(p.createdAt) <= oldestOnFirst)).toBe(true)

    for (const page of ['abc', '0', '-3', '1.5', '', '1e309']) {
      const answer = await list(`?status=failed&page=${page}`)
      expect(answer.status, page).toBe(200)
      expect(answer.json.page, page).toBe(1)
    }
    const last = await list('?status=failed&page=999999')
    expect(last.status).toBe(200)
    expect(last.json.page).toBe(last.json.totalPages)
  })

  test('a status that is none answers 400 with its error in the language asked; only GET', async () => {
    for (const status of ['bogus', 'PAID', 'paid ', 'awaiting_payment', "'; drop"]) {
      const answer = await list(`?status=${encodeURIComponent(status)}`)
      expect(answer, status).toMatchObject({
        status: 400,
        json: { error: 'Неизвестный статус платежа' },
      })
    }
    expect(await list('?status=nope', 'en')).toMatchObject({
      status: 400,
      json: { error: 'Unknown payment status' },
    })
    const post = await call('/api/admin/payments', { cookie: admin, body: {} })
    expect(post.status).toBe(405)
  })

  test('the page: admins only, plain links to filter and page, status labels in each language', async () => {
    const anonymous = await getPage('/admin/payments?status=held', '', 'ru')
    expect(anonymous.status).toBe(302)
    expect(anonymous.location).toBe(
      `/login?redirectTo=${encodeURIComponent('/admin/payments?status=held')}`,
    )
    const asUser = await getPage('/admin/payments', user, 'ru')
    expect(asUser).toMatchObject({ status: 302, location: '/' })

    const labels: Record<'ru' | 'en', Record<Status, string>> = {
      ru: {
        pending: 'Ожидает',
        paid: 'Оплачен',
        held: 'Задержан',
        refunded: 'Возвращён',
        failed: 'Не прошёл',
        cancelled: 'Отменён',
      },
      en: {
        pending: 'Pending',
        paid: 'Paid',
        held: 'Held',
        refunded: 'Refunded',
        failed: 'Failed',
        cancelled: 'Cancelled',
      },
    }
    for (const language of ['ru', 'en'] as const satisfies readonly Language[]) {
      for (const status of statuses) {
        const page = await getPage(`/admin/payments?status=${status}`, admin, language)
        expect(page.status, `${language} ${status}`).toBe(200)
        const label = labels[language][status]
        // The filter is a plain link, the chosen one marked; the row shows the label.
        expect(filterLink(page.text, `/admin/payments?status=${status}`)).toMatch(
          new RegExp(`^<a [^>]*aria-current="page"[^>]*>${label}</a>$`),
        )
        const row = new RegExp(`<tr [^>]*data-payment-id="${mine.get(status)}"[\\s\\S]*?</tr>`)
        expect(page.text).toMatch(row)
        expect(row.exec(page.text)![0]).toContain(`>${label}</td>`)
        expect(row.exec(page.text)![0]).toContain(buyer.name)
      }
    }
    // Failed payments fill two pages (the test before made them): the pager is plain links.
    const failed = await getPage('/admin/payments?status=failed', admin, 'ru')
    expect(failed.text).toContain('href="/admin/payments?status=failed&amp;page=2"')
    expect((failed.text.match(/<tr [^>]*data-payment-id=/g) ?? []).length).toBe(20)
    // A status or page that is none shows all payments, the first page: never an error.
    const bogus = await getPage('/admin/payments?status=bogus&page=abc', admin, 'ru')
    expect(bogus.status).toBe(200)
    expect(filterLink(bogus.text, '/admin/payments')).toMatch(
      /^<a [^>]*aria-current="page"[^>]*>Все<\/a>$/,
    )
  })
})
