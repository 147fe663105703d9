import { beforeAll, describe, expect, test } from 'vitest'
import { base, call, unique } from './api.ts'
import { adminSession, inAnHour } from './admin-api.ts'
import { withoutPageTexts } from './pages.ts'

// The fair-play settings of an auction (docs/rules.md#fair-play-auctions,
// docs/decisions/082-fair-play-auction-settings.md): set by the admin's calls and forms while it
// is upcoming, fixed once it is live, and carried by the public JSON.

let admin = ''

beforeAll(async () => {
  admin = await adminSession()
})

const post = (body: Record<string, unknown>) =>
  call('/api/admin/auctions', {
    cookie: admin,
    body: { title: `Честно ${unique()}`, retailPrice: 100, startTime: inAnHour(), ...body },
  })
const put = (id: unknown, body: Record<string, unknown>, lang = 'ru') =>
  call(`/api/admin/auctions/${String(id)}`, { method: 'PUT', cookie: admin, body, lang })
const publicAuction = async (slug: unknown) =>
  (await call(`/api/auctions/slug/${encodeURIComponent(String(slug))}`, { method: 'GET' })).json

describe('admin API: fair-play settings of an auction', () => {
  test('created with both, shown to visitors, changed while upcoming; left out, kept', async () => {
    const created = await post({ beginnerOnly: true, lockAfterMinutes: 30 })
    expect(created).toMatchObject({
      status: 201,
      json: { beginnerOnly: true, lockAfterMinutes: 30, locked: false },
    })
    const { id, slug, title } = created.json
    expect(await publicAuction(slug)).toMatchObject({
      beginnerOnly: true,
      lockAfterMinutes: 30,
      locked: false,
    })
    const list = await call('/api/auctions', { method: 'GET' })
    const listed = (list.json.upcoming as Array<Record<string, unknown>>).find((a) => a.id === id)
    expect(listed).toMatchObject({ beginnerOnly: true, lockAfterMinutes: 30 })

    // The defaults, for a client that knows nothing of them.
    expect(await post({})).toMatchObject({
      status: 201,
      json: { beginnerOnly: false, lockAfterMinutes: null, locked: false },
    })

    const edit = { title, retailPrice: 100, startTime: created.json.startTime }
    expect(await put(id, edit)).toMatchObject({
      status: 200,
      json: { beginnerOnly: true, lockAfterMinutes: 30 },
    })
    expect(await put(id, { ...edit, beginnerOnly: false, lockAfterMinutes: null })).toMatchObject({
      status: 200,
      json: { beginnerOnly: false, lockAfterMinutes: null },
    })
    expect(await publicAuction(slug)).toMatchObject({
      beginnerOnly: false,
      lockAfterMinutes: null,
    })
    await call(`/api/admin/auctions/${String(id)}`, { method: 'DELETE', cookie: admin })
  })

  test('invalid values are refused with 400 and the reason', async () => {
    const minutes =
      '«Закрыть для новых участников через» — целое число минут от 1 до 1440 или пусто (не закрывать)'
    for (const lockAfterMinutes of [-5, 0, 1441, 2.5, 'soon', '1e3', true])
      expect(await post({ lockAfterMinutes }), String(lockAfterMinutes)).toMatchObject({
        status: 400,
        json: { error: minutes },
      })
    for (const beginnerOnly of ['yes', null, 3])
      expect(await post({ beginnerOnly }), String(beginnerOnly)).toMatchObject({
        status: 400,
        json: { error: '«Аукцион для новичков» — да или нет (true или false)' },
      })
    expect(
      await put('nope', { title: 'Лот', retailPrice: 1, startTime: inAnHour() }),
    ).toMatchObject({
      status: 404,
    })
  })

  test('fixed once live: a change is refused with 409, the other edits keep working', async () => {
    const created = await post({
      lockAfterMinutes: 5,
      startTime: new Date(Date.now() + 1500).toISOString(),
    })
    expect(created.status).toBe(201)
    const { id, slug, title, startTime } = created.json
    await expect
      .poll(async () => (await publicAuction(slug)).status, { timeout: 10_000 })
      .toBe('live')
    expect(await publicAuction(slug)).toMatchObject({ lockAfterMinutes: 5, locked: false })

    const edit = { title, retailPrice: 100, startTime }
    const started =
      'Аукцион уже начался: «для новичков» и «закрыть для новых участников» можно менять только до старта'
    for (const change of [
      { lockAfterMinutes: 10 },
      { lockAfterMinutes: null },
      { beginnerOnly: true },
    ])
      expect(await put(id, { ...edit, ...change }), JSON.stringify(change)).toMatchObject({
        status: 409,
        json: { error: started },
      })
    expect(await put(id, { ...edit, lockAfterMinutes: 10 }, 'en')).toMatchObject({
      status: 409,
      json: {
        error:
          'The auction has started: "beginner auction" and "lock after" can change only before the start',
      },
    })
    // The same values sent again, or left out: the title changes, the rest stays.
    expect(
      await put(id, {
        ...edit,
        title: `${String(title)} 2`,
        beginnerOnly: false,
        lockAfterMinutes: 5,
      }),
    ).toMatchObject({ status: 200, json: { beginnerOnly: false, lockAfterMinutes: 5 } })
    expect(await put(id, { ...edit, title: `${String(title)} 3` })).toMatchObject({
      status: 200,
      json: { lockAfterMinutes: 5 },
    })

    // The edit dialog shows them disabled; its form refuses a changed value too.
    const dialog = await fetch(`${base()}/admin/auctions/${String(id)}/edit`, {
      headers: { Cookie: admin, 'Accept-Language': 'en' },
    })
    const html = await dialog.text()
    for (const name of ['lockAfterMinutes', 'beginnerOnly']) {
      const inputs = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`, 'g')) ?? []
      expect(inputs.length, name).toBe(1)
      expect(inputs[0], name).toMatch(/ disabled=""/)
    }
    const form = new FormData()
    for (const [name, value] of Object.entries({
      title: `${String(title)} 4`,
      retailPrice: '100',
      startTime: String(startTime),
      lockAfterMinutes: '20',
    }))
      form.set(name, value)
    const refused = await fetch(`${base()}/admin/auctions/${String(id)}/edit`, {
      method: 'POST',
      headers: { Cookie: admin, 'Accept-Language': 'en' },
      body: form,
    })
    expect(refused.status).toBe(409)
    expect(withoutPageTexts(await refused.text())).toContain('The auction has started:')

    await call(`/api/admin/auctions/${String(id)}/end`, { cookie: admin })
    expect(await put(id, { ...edit, lockAfterMinutes: 10 })).toMatchObject({
      status: 409,
      json: { error: 'Аукцион уже завершён' },
    })
    await call(`/api/admin/auctions/${String(id)}`, { method: 'DELETE', cookie: admin })
  }, 30_000)
})
